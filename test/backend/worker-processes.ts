/**
 * Workers in processes of their own (test/backend/worker-process.ts), for tests that kill
 * one or that want real process boundaries.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RedisServer } from './redis-server.js';
import type { ScaleKit } from './scale-kit.js';

const SCRIPT = fileURLToPath(new URL('./worker-process.ts', import.meta.url));

/** Starts the worker script; resolves once it pulls tasks. */
export async function workerProcess(kit: ScaleKit, redis: RedisServer, options: { model: string; stallMs: number; concurrency?: number }): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      REDIS_URL: redis.url,
      PREFIX: kit.prefix,
      BASE_URL: kit.fixture.server.baseURL,
      MODEL: options.model,
      WORKSPACE: kit.fixture.workspace.dir,
      HOME_DIR: kit.fixture.home,
      STALL_MS: String(options.stallMs),
      CONCURRENCY: String(options.concurrency ?? 1),
    },
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => c.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the worker process exited with ${String(code)}: ${err}`)));
  });
  return child;
}


/** Stops a worker process gracefully (SIGTERM: it closes its worker and backend), SIGKILL after 3 s. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
