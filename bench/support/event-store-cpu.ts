/**
 * The CPU a run's event log store (`src/runs/event-store.ts`) costs for runs of serve's size
 * (issue 28: a main agent's run with 2 children answering 60 deltas each, about 150 events),
 * where the store's growth from empty and its trim at the seal are a larger share than in a
 * long run. Not part of the run:
 *
 * ```sh
 * node --import tsx bench/support/event-store-cpu.ts [--dist /tmp/ev/before --dist /tmp/ev/after] [--runs 20000] [--reps 9]
 * ```
 *
 * Each rep fills `--runs` fresh stores with the same events (built once, outside the timing)
 * and seals them, the builds taking turns rep by rep; prints the median CPU per event.
 * (`--dist`: copies of `dist/`, as for `event-path-cpu.ts`.)
 *
 * @module
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type * as EventStoreModule from '../../src/runs/event-store.js';
import { median } from './stats.js';

const { values: args } = parseArgs({
  options: {
    dist: { type: 'string', multiple: true, default: [new URL('../../dist', import.meta.url).pathname] },
    runs: { type: 'string', default: '20000' },
    reps: { type: 'string', default: '9' },
  },
});
const RUNS = Number(args.runs);
const REPS = Number(args.reps);

/** One serve-sized run's events as its log gets them: the children's deltas interleaved, wrapped. */
function serveRun(): AgentEvent[] {
  const wrap = (child: number, event: AgentEvent): AgentEvent => ({
    type: 'TaskWrap', runId: 'main', agentName: 'main', parentRunId: 'main', taskId: `t${child}`, taskIndex: child, taskAgentName: 'general', taskDescription: `child ${child}`, multitask: true, event,
  });
  const events: AgentEvent[] = [{ type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'go' }];
  for (const child of [1, 2]) events.push(wrap(child, { type: 'RunStart', runId: `c${child}`, agentName: 'general', sessionId: `t${child}`, prompt: 'go' }));
  for (let i = 0; i < 60; i++) {
    for (const child of [1, 2]) events.push(wrap(child, { type: 'ReasonDelta', runId: `c${child}`, agentName: 'general', step: 1, kind: 'text', text: `tok${i} ` }));
  }
  for (const child of [1, 2]) events.push(wrap(child, { type: 'ReasonEnd', runId: `c${child}`, agentName: 'general', step: 1, text: 'x', toolCalls: [], durationMs: 1 }));
  for (let i = 0; i < 20; i++) events.push({ type: 'ReasonDelta', runId: 'main', agentName: 'main', step: 2, kind: 'text', text: `end${i} ` });
  return events;
}

const events = serveRun();
const builds = await Promise.all(
  args.dist!.map(async (path) => ({ name: path, module: (await import(`${pathToFileURL(resolve(path)).href}/runs/event-store.js`)) as typeof EventStoreModule })),
);
const fill = ({ EventStore }: typeof EventStoreModule): void => {
  for (let r = 0; r < RUNS; r++) {
    const store = new EventStore();
    for (const event of events) store.push(event);
    store.seal();
  }
};
for (const build of builds) fill(build.module); // warm-up
const perEvent = builds.map((): number[] => []);
for (let rep = 0; rep < REPS; rep++) {
  for (const [i, build] of builds.entries()) {
    const before = process.cpuUsage();
    fill(build.module);
    const { user, system } = process.cpuUsage(before);
    perEvent[i]!.push(((user + system) * 1000) / (RUNS * events.length));
  }
}
console.log(`${RUNS} runs of ${events.length} events, ${REPS} reps`);
for (const [i, build] of builds.entries()) console.log(`${build.name}: ${median(perEvent[i]!).toFixed(1)} ns per event (reps ${perEvent[i]!.map((x) => x.toFixed(0)).join(', ')})`);
