import { HarnessEngine, ScriptedModel } from 'rxharness';

// A slow model: one chunk every 50 ms.
const model = new ScriptedModel(() => ({ text: 'a long answer that will not finish' }), { chunkDelayMs: 50, chunkSize: 4 });
const engine = new HarnessEngine({ model });

// 1. Unsubscribe: the run stops (its model request is aborted) and nothing more is emitted.
let seen = 0;
const subscription = engine.stream('Talk').subscribe(() => seen++);
setTimeout(() => {
  subscription.unsubscribe();
  console.log(`unsubscribed after ${seen} events; no RunEnd is faked`);
}, 120);

// 2. Abort a signal: the same, then the stream errors with AbortError and call() rejects.
const controller = new AbortController();
setTimeout(() => controller.abort(), 120);
await engine.call('Talk', { signal: controller.signal }).catch((error: Error) => console.log(`call() rejected: ${error.name}`));
