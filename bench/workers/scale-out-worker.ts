/**
 * The scale-out benchmark's worker: a `HarnessWorker` of the build in a process of its own,
 * pulling tasks from Redis. Its model answers each request after `delayMs`: a thinking
 * delta carrying a marker, then `done`. When the worker appends that delta to the child's
 * event log, the marker is replaced by the wall-clock time of the append
 * (`performance.timeOrigin + performance.now()`), so the parent can tell how long the event
 * took to reach its stream as a `TaskWrap`.
 *
 * ```sh
 * node --import tsx bench/workers/scale-out-worker.ts '{"url":"redis://127.0.0.1:6379","prefix":"so","concurrency":25,"delayMs":200,"workspace":"/tmp/ws","home":"/tmp/home"}'
 * ```
 *
 * Prints `ready` once it pulls tasks. On SIGTERM or when its stdin closes it closes the
 * worker and its backend, prints `{"answered":N}` (model requests it answered) and exits.
 *
 * @module
 */
import { concatMap, timer } from 'rxjs';
import type { ChatModel, SequencedEvent } from '../../src/index.js';
import { rx } from '../support/rxharness.js';
import { SENT_AT } from '../support/worker-fleet.js';

interface Config {
  readonly url: string;
  readonly prefix: string;
  readonly concurrency: number;
  readonly delayMs: number;
  readonly workspace: string;
  readonly home: string;
  readonly retentionMs?: number;
  readonly stallIntervalMs?: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
if (!config.url || !config.prefix) throw new Error('usage: scale-out-worker.ts \'{"url":...,"prefix":...,"concurrency":N,"delayMs":N,"workspace":...,"home":...}\'');

let answered = 0;
const scripted = new rx.ScriptedModel(() => {
  answered++;
  scripted.requests.length = 0; // a test double's log of requests: not the worker's memory
  return { thinking: SENT_AT, text: 'done', chunkSize: 64 };
});
const model: ChatModel = { id: 'slow-scripted', stream: (request) => timer(config.delayMs).pipe(concatMap(() => scripted.stream(request))) };

const backend = await rx.redisBackend({
  url: config.url,
  prefix: config.prefix,
  ...(config.retentionMs !== undefined ? { retentionMs: config.retentionMs } : {}),
  ...(config.stallIntervalMs !== undefined ? { stallIntervalMs: config.stallIntervalMs } : {}),
});
// Bench instrumentation, on this process's backend object only: stamp the marked delta as it is appended.
const log = backend.eventLog;
const append = log.append.bind(log);
log.append = (entry: SequencedEvent): Promise<void> => {
  const { event } = entry;
  if (event.type === 'ReasonDelta' && event.text === SENT_AT) {
    return append({ ...entry, event: { ...event, text: `${SENT_AT}${performance.timeOrigin + performance.now()}` } });
  }
  return append(entry);
};

const worker = new rx.HarnessWorker({ model, backend, concurrency: config.concurrency, workspace: config.workspace, homeDir: config.home });
await worker.ready;
process.stdout.write('ready\n');

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void (async () => {
    await worker.close();
    await backend.close();
    process.stdout.write(`${JSON.stringify({ answered })}\n`);
    process.exit(0);
  })();
};
process.once('SIGTERM', stop);
process.stdin.on('close', stop).resume();
