import { createDemoModel, HarnessEngine, isTaskWrap } from 'rxharness';

const engine = new HarnessEngine({ model: createDemoModel({ chunkDelayMs: 0 }), workspace: process.cwd() });

engine.stream('Survey this project').subscribe((event) => {
  if (isTaskWrap(event)) {
    // A child's event: which task, and what happened in it.
    if (event.event.type === 'RunEnd') console.log(`task #${event.taskIndex} ${event.taskAgentName} finished`);
  } else if (event.type === 'RunEnd') {
    // The run's own end: exactly one, the last value.
    console.log(event.text);
  }
});
