/**
 * A `llama-server` with a small context (`--ctx-size`, one slot), for the compaction check:
 * the arguments of {@link llamaArgs} with the context size changed, started on a free port
 * and stopped by the caller (also killed when the test process exits).
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { llamaArgs } from './llama-server.js';

/** A running server: its root URL, and how to stop it. */
export interface SmallContextServer {
  /** `http://127.0.0.1:<port>` (`/v1` is the OpenAI-compatible API). */
  readonly url: string;
  /** Stops it and resolves once the process is gone. */
  stop(): Promise<void>;
}

/** Starts `llama-server` with `template` and a context of `ctxSize` tokens in one slot; resolves once `/health` answers. */
export async function startSmallContextServer(dir: string, template: string, ctxSize: number): Promise<SmallContextServer> {
  const port = await freePort();
  const args = llamaArgs(dir, port, template, 1);
  args[args.indexOf('--ctx-size') + 1] = String(ctxSize);
  const child: ChildProcess = spawn(join(dir, 'llama-server'), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => void (log = (log + chunk.toString('utf8')).slice(-4_000)));
  const kill = (): void => void child.kill('SIGKILL');
  process.once('exit', kill);
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    process.off('exit', kill);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`llama-server exited during start-up:\n${log}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) return { url, stop };
    await delay(100);
  }
  await stop();
  throw new Error(`llama-server did not answer /health within 20 s:\n${log}`);
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}
