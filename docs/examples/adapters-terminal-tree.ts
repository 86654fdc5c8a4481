import { lastValueFrom } from 'rxjs';
import { createDemoModel, HarnessEngine, liveTree } from 'rxharness';

const engine = new HarnessEngine({ model: createDemoModel({ chunkDelayMs: 5 }) });

// On a TTY: a live tree redrawn in place. Otherwise: one plain line per notable event.
await lastValueFrom(liveTree(engine.stream('Survey this project'), { output: process.stdout }));
