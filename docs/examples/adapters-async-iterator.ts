import { createDemoModel, HarnessEngine, toAsyncIterable } from 'rxharness';

const engine = new HarnessEngine({ model: createDemoModel({ chunkDelayMs: 0 }) });

// for await over a run; `break` unsubscribes, which aborts the run and every task.
let tools = 0;
for await (const event of toAsyncIterable(engine.stream('Survey this project'), { bufferSize: 10_000 })) {
  if (event.type === 'TaskWrap' && event.event.type === 'ToolCallStart') tools++;
  if (event.type === 'RunEnd') console.log(`done; the tasks called ${tools} tools:\n${event.text}`);
}

for await (const event of toAsyncIterable(engine.stream('Survey this project'))) {
  if (event.type === 'TaskWrap') {
    console.log(`stopping at the first task event (${event.taskAgentName}); the run is aborted`);
    break;
  }
}
