import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { innermost, shapeable } from '../../src/runs/delta-shape.js';
import { testAgent } from '../support/agent-turns.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import type { ScriptedRoute } from '../support/scripted-routes.js';

// A started run's log keeps a delta as a number and its text only when its keys come in the
// one order its stream's shape has (delta-shape.ts); any other is kept whole, which costs the
// memory the shapes save. This pins down that the deltas rxharness itself builds, its own and
// its children's wrapped ones, all come in that order.

const offline = offlineEnginePerTest();

const main: ScriptedRoute = (turn) =>
  turn.step === 1
    ? { toolCalls: [{ name: 'multitask', args: { tasks: [1, 2].map((index) => ({ index, agent_name: 'worker', prompt: `part ${index}`, description: `Part ${index}` })) } }] }
    : turn.step === 2
      ? { toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'one more', description: 'One more' } }] }
      : { text: 'all parts are done', thinking: 'they all answered', chunkSize: 3 };
const worker: ScriptedRoute = (turn) => ({ text: `done with ${turn.prompt}`, thinking: 'working it out', chunkSize: 2 });

describe("the deltas rxharness builds have their shape's key order", () => {
  it('every delta of a run, its own and its children\'s through task and multitask, is kept as a shape', async () => {
    const o = await offline({ main, worker }, [testAgent('worker')]);
    const events: AgentEvent[] = await lastValueFrom(o.engine.stream('do the parts').pipe(toArray()));
    const deltas = events.filter((event) => innermost(event).type === 'ReasonDelta');
    const wrapped = deltas.filter((event) => event.type === 'TaskWrap');
    expect(wrapped.length).toBeGreaterThan(20); // three children, text and thinking, two characters a delta
    expect(deltas.length - wrapped.length).toBeGreaterThan(5); // the main agent's own
    expect(deltas.filter((event) => !shapeable(event))).toEqual([]);
  });
});
