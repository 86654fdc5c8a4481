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

const WORKER = fileURLToPath(new URL('./worker-process.ts', import.meta.url));
const ENGINE = fileURLToPath(new URL('./engine-process.ts', import.meta.url));

/**
 * The timeout of a test that starts processes of its own: each loads the harness through tsx
 * before anything is tested, seconds alone and ten or more on a machine whose cores are busy.
 */
export const PROCESS_TEST_TIMEOUT_MS = 60_000;

/** Starts the worker script; resolves once it pulls tasks. */
export async function workerProcess(kit: ScaleKit, redis: RedisServer, options: { model: string; stallMs: number; concurrency?: number }): Promise<ChildProcess> {
  const { child } = await started(WORKER, kit, redis, { MODEL: options.model, STALL_MS: String(options.stallMs), CONCURRENCY: String(options.concurrency ?? 1) }, /^ready$/m);
  return child;
}

/** Starts the engine script running `prompt`; resolves with the process and its run's id. */
export async function engineProcess(
  kit: ScaleKit,
  redis: RedisServer,
  options: { model: string; stallMs: number; prompt: string; sessionId?: string; sessionLeaseMs?: number },
): Promise<{ child: ChildProcess; runId: string }> {
  const session = { ...(options.sessionId ? { SESSION_ID: options.sessionId } : {}), ...(options.sessionLeaseMs ? { SESSION_LEASE_MS: String(options.sessionLeaseMs) } : {}) };
  const { child, line } = await started(ENGINE, kit, redis, { MODEL: options.model, STALL_MS: String(options.stallMs), PROMPT: options.prompt, ...session }, /^run (\S+)$/m);
  return { child, runId: line[1]! };
}

async function started(script: string, kit: ScaleKit, redis: RedisServer, env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; line: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      REDIS_URL: redis.url,
      PREFIX: kit.prefix,
      BASE_URL: kit.fixture.server.baseURL,
      WORKSPACE: kit.fixture.workspace.dir,
      HOME_DIR: kit.fixture.home,
      ...env,
    },
  });
  let err = '';
  let out = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const line = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const found = ready.exec(out);
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${String(code)}: ${err}`)));
  });
  return { child, line };
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
