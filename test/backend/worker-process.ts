/**
 * A `HarnessWorker` in a process of its own, for tests that kill it:
 *
 * ```sh
 * node --import tsx test/backend/worker-process.ts
 * ```
 *
 * Configured by environment: `REDIS_URL`, `PREFIX`, `BASE_URL` (the fake OpenAI server),
 * `MODEL` (the model id it sends), `WORKSPACE`, `HOME_DIR`, `STALL_MS`, `CONCURRENCY`.
 * Prints `ready` once it pulls tasks; closes on SIGTERM or when its stdin closes.
 *
 * @module
 */
import { HarnessWorker } from '../../src/backend/harness-worker.js';
import { redisBackend } from '../../src/backend/redis-backend.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`worker-process: ${name} is not set`);
  return value;
};

const backend = await redisBackend({ url: env('REDIS_URL'), prefix: env('PREFIX'), stallIntervalMs: Number(env('STALL_MS')) });
const model = new OpenAIChatModel({ model: env('MODEL'), baseURL: env('BASE_URL'), apiKey: 'test-key', maxRetries: 0 });
const worker = new HarnessWorker({ model, backend, workspace: env('WORKSPACE'), homeDir: env('HOME_DIR'), concurrency: Number(env('CONCURRENCY')) });
await worker.ready;
process.stdout.write('ready\n');
const stop = (): void => {
  void worker.close().then(() => backend.close());
};
process.once('SIGTERM', stop);
process.stdin.on('close', stop).resume();
