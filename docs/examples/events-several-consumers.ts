import { connectable, lastValueFrom, share, toArray } from 'rxjs';
import { HarnessEngine, ScriptedModel, type AgentEvent } from 'rxharness';

const model = new ScriptedModel(() => ({ text: 'One answer for everyone.' }), { chunkDelayMs: 5 });
const engine = new HarnessEngine({ model });

// The trap: a run emits its first events synchronously, inside the first subscribe() call.
// With share(), a second subscriber added on the next line has already missed them.
const shared$ = engine.stream('Answer').pipe(share());
const first: string[] = [];
const second: string[] = [];
await new Promise<void>((done) => {
  shared$.subscribe((event) => first.push(event.type));
  shared$.subscribe({ next: (event) => second.push(event.type), complete: done });
});
console.log(`share(): the second subscriber missed ${first.slice(0, first.length - second.length).join(', ')}`);

// Fix 1, several consumers in this process: subscribe them all, then connect() starts the run.
const connected$ = connectable(engine.stream('Answer'));
let [a, b] = [0, 0];
connected$.subscribe(() => a++);
const ended = lastValueFrom(connected$.pipe(toArray()));
connected$.subscribe(() => b++);
connected$.connect();
const all = await ended;
console.log(`connectable(): ${a === all.length && b === all.length ? 'both saw every' : 'one missed an'} event`);

// Fix 2, consumers that come when they come (another request, a reconnect): start() runs it
// once, hot; each subscription to events$ gets every event from the first, even after the end.
const run = engine.start('Answer');
const early = lastValueFrom(run.events$.pipe(toArray()));
await run.result;
const late = await lastValueFrom(run.events$.pipe(toArray()));
const types = (events: { event: AgentEvent }[]): string => events.map(({ event }) => event.type).join(' ');
console.log(`start(): the late consumer saw ${types(late) === types(await early) ? 'the same' : 'other'} ${late.length} events, from ${late[0]!.event.type} to ${late.at(-1)!.event.type}`);
