import { lastValueFrom } from 'rxjs';
import { HarnessEngine, ofEventType, ScriptedModel, terminalRunEnd } from 'rxharness';

const model = new ScriptedModel(() => ({ text: 'Streaming this answer in small pieces.' }), { chunkSize: 8 });
const engine = new HarnessEngine({ model });

// The text deltas of the run itself (children's deltas stay inside their TaskWrap events).
engine
  .stream('Say something')
  .pipe(ofEventType('ReasonDelta'))
  .subscribe((delta) => process.stdout.write(`[${delta.text}]`));

// Wait for the run's own terminal RunEnd, never a child's.
const end = await lastValueFrom(engine.stream('Say something').pipe(terminalRunEnd()));
console.log(`\n${end.text} (${end.steps} step, abnormal: ${end.abnormal})`);
