/**
 * A real `redis-server` for one test file: started on a free loopback port with persistence
 * off, stopped (SIGKILL after a grace) when the file is done. Nothing is mocked at the
 * Redis boundary. Without the program the tests skip with a visible note, or fail under
 * `RXHARNESS_REQUIRE_SYSTEM=1` (CI).
 *
 * @module
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { systemProgram } from '../support/system-requirement.js';

/** The path of `redis-server`, if installed. */
export function findRedisServer(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : undefined;
}

/** Whether the Redis tests run (a note or a failure otherwise; see `systemProgram`). */
export const HAS_REDIS = systemProgram('redis-server', findRedisServer(), 'sudo apt-get install -y redis-server');

/** A running server. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops it; resolves when the process has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop`). */
  restart(): Promise<void>;
}

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

/** Starts `redis-server` on a free port; resolves once it accepts connections. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    const proc = spawn(findRedisServer()!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port}: ${out}`)), 10_000);
      proc.stdout!.on('data', (chunk: Buffer) => {
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
    });
    proc.stdout!.resume();
    proc.stderr!.resume();
  };
  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  };
  await launch();
  return { port, url: `redis://127.0.0.1:${port}`, stop, restart: launch };
}
