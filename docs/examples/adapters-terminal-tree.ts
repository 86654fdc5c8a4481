import { lastValueFrom } from 'rxjs';
import { createDemoModel, HarnessEngine, liveTree, terminalRunEnd } from 'rxharness';

const engine = new HarnessEngine({ model: createDemoModel({ chunkDelayMs: 5 }) });

// An operator like the others. On a TTY: a live tree redrawn in place; otherwise one plain
// line per notable event. The events pass through, here to the run's own end.
const end = await lastValueFrom(engine.stream('Survey this project').pipe(liveTree({ output: process.stdout }), terminalRunEnd()));
process.exitCode = end.abnormal ? 1 : 0;
