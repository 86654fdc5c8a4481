import { EmptyError, lastValueFrom, share, takeUntil, timer, toArray } from 'rxjs';
import { HarnessEngine, ScriptedModel, terminalRunEnd } from 'rxharness';

const model = new ScriptedModel(() => ({ text: 'One answer, streamed slowly.', chunkSize: 4 }), { chunkDelayMs: 10 });
const engine = new HarnessEngine({ model });

// 1. A stream is cold: each subscription is a run of its own (two model requests here).
const events$ = engine.stream('Answer once');
await Promise.all([lastValueFrom(events$.pipe(toArray())), lastValueFrom(events$.pipe(toArray()))]);
console.log(`two subscriptions to stream(): ${model.requests.length} runs`);

// 2. share() makes one run for the subscribers that join while it goes on (these two wait for its RunEnd only).
model.requests.length = 0;
const shared$ = engine.stream('Answer once').pipe(share());
const [a, b] = await Promise.all([lastValueFrom(shared$.pipe(terminalRunEnd())), lastValueFrom(shared$.pipe(terminalRunEnd()))]);
console.log(`share(): ${model.requests.length} run, both saw "${a.text}" (${a.runId === b.runId ? 'same run' : 'different runs'})`);

// 3. start() is a hot, registered run: attach any time, even after it ended, from seq 0.
model.requests.length = 0;
const run = engine.start('Answer once');
const end = await run.result;
const replay = await lastValueFrom(engine.runs.attach(run.runId).pipe(toArray()));
console.log(`start(): ${model.requests.length} run; a late attach replays ${replay.length > 0 ? 'every' : 'no'} event, the last one ${replay.at(-1)!.event.type} (${end.text === a.text ? 'same answer' : 'another answer'})`);

// 4. lastValueFrom(terminalRunEnd()) after a cancel never sees a RunEnd (none is faked):
//    an aborted signal rejects it with AbortError; a stream cut short (takeUntil) with EmptyError.
const controller = new AbortController();
setTimeout(() => controller.abort(), 25);
await lastValueFrom(engine.stream('Answer once', { signal: controller.signal }).pipe(terminalRunEnd())).catch((e: Error) => console.log(`aborted signal: ${e.name}`));
await lastValueFrom(engine.stream('Answer once').pipe(takeUntil(timer(25)), terminalRunEnd())).catch((e: Error) => console.log(`cut short: ${e instanceof EmptyError ? 'EmptyError' : e.name}`));
// A started run cancelled with runs.cancel(): its attachments error with AbortError, result rejects.
const cancelled = engine.start('Answer once');
setTimeout(() => engine.runs.cancel(cancelled.runId), 25);
await cancelled.result.catch((e: Error) => console.log(`runs.cancel(): result rejects with ${e.name}`));
