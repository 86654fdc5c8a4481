/**
 * A `HarnessEngine` on the Redis backend in a process of its own, for tests that kill it
 * mid-run:
 *
 * ```sh
 * node --import tsx test/backend/engine-process.ts
 * ```
 *
 * Configured by environment like worker-process.ts (`REDIS_URL`, `PREFIX`, `BASE_URL`,
 * `MODEL`, `WORKSPACE`, `HOME_DIR`, `STALL_MS`) plus `PROMPT`, and optionally `SESSION_ID`
 * and `SESSION_LEASE_MS`: starts one run of the main agent (in that session) and prints
 * `run <id>`; closes on SIGTERM or when its stdin closes.
 *
 * @module
 */
import { redisBackend } from '../../src/backend/redis-backend.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`engine-process: ${name} is not set`);
  return value;
};

const lease = process.env['SESSION_LEASE_MS'];
const backend = await redisBackend({
  url: env('REDIS_URL'),
  prefix: env('PREFIX'),
  stallIntervalMs: Number(env('STALL_MS')),
  ...(lease ? { sessionLeaseMs: Number(lease) } : {}),
});
const model = new OpenAIChatModel({ model: env('MODEL'), baseURL: env('BASE_URL'), apiKey: 'test-key', maxRetries: 0 });
const engine = new HarnessEngine({ model, backend, workspace: env('WORKSPACE'), homeDir: env('HOME_DIR') });
const sessionId = process.env['SESSION_ID'];
const run = engine.start(env('PROMPT'), sessionId ? { sessionId } : {});
process.stdout.write(`run ${run.runId}\n`);
const stop = (): void => {
  void engine.close().then(() => backend.close());
};
process.once('SIGTERM', stop);
process.stdin.on('close', stop).resume();
