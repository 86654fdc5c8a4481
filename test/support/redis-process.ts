/**
 * A `redis-server` process on a free loopback port with persistence off: what the scale-out
 * tests (test/backend/redis-server.ts) and the scale-out benchmark (bench/support) both start.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port of 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `program` on `port`, with `extraArgs` after the defaults (e.g. `--rename-command
 * CLIENT ""`, to act as a hosted Redis that refuses a command); resolves once it accepts
 * connections (it is killed if it does not within 10 s).
 */
export async function spawnRedis(program: string, port: number, extraArgs: readonly string[] = []): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs];
  const proc = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port}: ${out}`)), 10_000);
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${String(code)}: ${out}`));
    });
  }).catch((e: unknown) => {
    proc.kill('SIGKILL');
    throw e;
  });
  proc.stdout.resume();
  proc.stderr.resume();
  return proc;
}

/** Stops a server (SIGTERM, then SIGKILL after 2 s); resolves when it has exited. */
export async function stopRedis(proc: ChildProcess | undefined): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}
