/**
 * Starts and stops a real `llama-server` on a free loopback port, with the flags of
 * `../shared/llama/start` (spawned here directly, so the test owns the process: it sees it
 * exit, reads its log, and kills it on failure too). Every server started is also killed when
 * the test process exits, so a crashed file leaves nothing behind.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const HEALTH_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 3_000;
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * The arguments `../shared/llama/start PORT TEMPLATE` passes, with `--parallel` given.
 * Without a template: the server's built-in chatml and no `--jinja`, i.e. a server started
 * without tool support.
 */
export function llamaArgs(dir: string, port: number, template: string | undefined, parallel: number): string[] {
  const args = ['-m', join(dir, 'llama-2-tiny-random.gguf'), '--host', '127.0.0.1', '--port', String(port), '--alias', 'tiny',
    '--ctx-size', '32768', '--override-kv', 'llama.context_length=int:32768', '--parallel', String(parallel), '--threads', '2'];
  // The random model otherwise writes invalid UTF-8 (byte-fallback tokens 3..258), which the server rejects.
  for (let token = 3; token <= 258; token++) args.push('-l', `${token}-100`);
  if (template === undefined) return [...args, '--no-jinja'];
  args.push('--jinja', '--chat-template-file', join(dir, 'templates', template), '--override-kv', 'tokenizer.ggml.add_space_prefix=bool:false');
  return args;
}

/** A running `llama-server`. */
export class LlamaServer {
  #log = '';
  #exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    /** `http://127.0.0.1:<port>`: the server's own endpoints (`/health`, `/slots`, `/apply-template`). */
    readonly url: string,
    /** The chat template file it renders prompts with (`chatml, no --jinja` without one). */
    readonly template: string,
  ) {
    const keep = (chunk: Buffer): void => void (this.#log = (this.#log + chunk.toString('utf8')).slice(-20_000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.#exited = once(child, 'exit').then(() => void running.delete(child));
  }

  /**
   * Starts a server with `template` (a file in `<dir>/templates/`; none: no tool support) and
   * `parallel` slots, on `port` (default: a free one); resolves once `/health` answers.
   */
  static async start(dir: string, template: string | undefined, parallel = 2, port?: number): Promise<LlamaServer> {
    let lastError: unknown;
    for (let attempt = 0; attempt < (port === undefined ? 3 : 1); attempt++) {
      const port_ = port ?? (await freePort());
      const child = spawn(join(dir, 'llama-server'), llamaArgs(dir, port_, template, parallel), { stdio: ['ignore', 'pipe', 'pipe'] });
      running.add(child);
      const server = new LlamaServer(child, `http://127.0.0.1:${port_}`, template ?? 'chatml, no --jinja');
      try {
        await server.#waitHealthy();
        return server;
      } catch (error) {
        lastError = error;
        await server.stop();
        if (!/bind|address already in use/i.test(server.log)) break; // only a lost port race is worth another try
      }
    }
    throw lastError;
  }

  /** `<url>/v1`, for `OpenAIChatModel`'s `baseURL`. */
  get baseURL(): string {
    return `${this.url}/v1`;
  }

  /** The last 20,000 characters the server logged, for failure messages. */
  get log(): string {
    return this.#log;
  }

  /** Whether the process is still running. */
  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Kills the server at once (SIGKILL: a crash, no goodbye) and resolves once the process is gone. */
  async kill(): Promise<void> {
    if (this.alive) this.child.kill('SIGKILL');
    await this.#exited;
  }

  /** Stops the server (SIGTERM, then SIGKILL after 3 s) and resolves once the process is gone. Idempotent. */
  async stop(): Promise<void> {
    if (this.alive) {
      this.child.kill('SIGTERM');
      const killed = await Promise.race([this.#exited.then(() => true), delay(STOP_TIMEOUT_MS, false)]);
      if (!killed) this.child.kill('SIGKILL');
    }
    await this.#exited;
  }

  async #waitHealthy(): Promise<void> {
    const deadline = Date.now() + HEALTH_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (!this.alive) throw new Error(`llama-server (${this.template}) exited during start-up:\n${this.#log.slice(-2_000)}`);
      const ok = await fetch(`${this.url}/health`).then((r) => r.ok, () => false);
      if (ok) return;
      await delay(100);
    }
    throw new Error(`llama-server (${this.template}) did not answer /health within ${HEALTH_TIMEOUT_MS} ms:\n${this.#log.slice(-2_000)}`);
  }
}

/** A port nothing listens on right now (the OS picks it; the server binds it a moment later). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}
