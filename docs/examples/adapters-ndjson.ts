import { from, lastValueFrom, toArray } from 'rxjs';
import { createDemoModel, HarnessEngine, parseNdjson, toNdjson } from 'rxharness';

const engine = new HarnessEngine({ model: createDemoModel({ chunkDelayMs: 0 }) });

// One JSON event per line: for logs, pipes and other processes (`rxharness run --json` prints this).
const lines = await lastValueFrom(engine.stream('Survey this project').pipe(toNdjson(), toArray()));
console.log(lines[0]!.trim());

// And back: a reader that rebuilds events from chunks that may split lines anywhere.
const text = lines.join('');
const chunks = [text.slice(0, 100), text.slice(100, 1234), text.slice(1234)];
const events = await lastValueFrom(from(chunks).pipe(parseNdjson(), toArray()));
console.log(`${lines.length} lines -> ${events.length} events; last: ${events.at(-1)?.type}`);
