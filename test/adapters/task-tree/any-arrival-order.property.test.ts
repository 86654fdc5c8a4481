/**
 * The tasks of a multitask may reach the tree in any order (a pool starts them as slots free
 * up; a stream joined late sees them as they next speak): each goes before the first task of
 * its own call with a higher index. For any arrival order, with several calls, repeated
 * indexes, plain tasks among them and enough tasks that the node keeps a shared list, the
 * reducer builds exactly the walking reducer's tree, keeps every state as it was, and does
 * the same from a tree made elsewhere (restored from JSON, its children even out of order).
 * A task arriving before its siblings reads (so copies) none of their list.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, type TaskTreeState, type TreeNode } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { referenceReduceTree } from './reference-reduce-tree.js';
import { countReads } from './count-reads.js';

interface Spec {
  readonly call: string; // the delegating run: 'main' runs the root, the others run nothing (their tasks go under the root)
  readonly taskIndex: number;
  readonly multitask: boolean;
  readonly queued: boolean; // first seen as queued, else as started
}

const spec = fc.record({ call: fc.constantFrom('main', 'main', 'ghost1', 'ghost2'), taskIndex: fc.integer({ min: 1, max: 300 }), multitask: fc.boolean(), queued: fc.boolean() });
// Each task's first sight, then later items for random tasks, in a random order.
const stream = fc.array(spec, { minLength: 1, maxLength: 160, size: 'max' }).chain((specs) =>
  fc.record({ specs: fc.constant(specs), order: fc.shuffledSubarray(specs.map((_, i) => i), { minLength: specs.length }), later: fc.array(fc.nat({ max: specs.length - 1 }), { maxLength: 40 }) }),
);

const START: AgentEvent = { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' };

/** The first sight of task `i`: its `TaskQueued`, or its `RunStart` inside its `TaskWrap`. */
function firstSight(s: Spec, i: number): AgentEvent {
  const task = { parentRunId: s.call, taskId: `t${i}`, taskIndex: s.taskIndex, taskAgentName: 'w', taskDescription: `task ${i}` };
  if (s.queued && s.multitask) return { type: 'TaskQueued', runId: s.call, agentName: 'main', ...task };
  return { type: 'TaskWrap', runId: `r${i}`, agentName: 'w', ...task, multitask: s.multitask, event: { type: 'RunStart', runId: `r${i}`, agentName: 'w', sessionId: `t${i}`, prompt: 'p' } };
}

function delta(s: Spec, i: number, text: string): AgentEvent {
  const event: AgentEvent = { type: 'ReasonDelta', runId: `r${i}`, agentName: 'w', step: 1, kind: 'text', text };
  return { type: 'TaskWrap', runId: `r${i}`, agentName: 'w', parentRunId: s.call, taskId: `t${i}`, taskIndex: s.taskIndex, taskAgentName: 'w', taskDescription: `task ${i}`, multitask: s.multitask, event };
}

/** The run's events: its start, each task's first sight in `order`, each followed by an item for an earlier-seen task. */
function eventsOf(specs: readonly Spec[], order: readonly number[], later: readonly number[]): AgentEvent[] {
  const events: AgentEvent[] = [START];
  order.forEach((i, k) => {
    events.push(firstSight(specs[i]!, i));
    const j = later[k];
    if (j !== undefined) events.push(delta(specs[j]!, j, `d${k}`));
  });
  return events;
}

/** A tree made elsewhere: every node's children reversed (the calls' tasks out of index order). */
function reversed(node: TreeNode): TreeNode {
  return { ...node, children: node.children.map(reversed).reverse() };
}

describe('reduceTree with tasks arriving in any order', () => {
  it('builds the walking reducer\'s tree after every event, and every state stays as it was', () => {
    fc.assert(
      fc.property(stream, ({ specs, order, later }) => {
        const events = eventsOf(specs, order, later);
        const states: TaskTreeState[] = [];
        let indexed = createTreeState();
        let walked = createTreeState();
        events.forEach((event, now) => {
          indexed = reduceTree(indexed, event, now);
          walked = referenceReduceTree(walked, event, now);
          if (now % 7 === 0) expect(indexed).toEqual(walked); // some read as the stream goes
          states.push(indexed);
        });
        expect(indexed).toEqual(walked);
        // read late, each state is the walking reducer's after as many events
        let check = createTreeState();
        events.forEach((event, now) => {
          check = referenceReduceTree(check, event, now);
          expect(states[now]).toEqual(check);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('goes on from a tree made elsewhere (copied, or its children out of order) as the walking reducer does', () => {
    fc.assert(
      fc.property(stream, fc.nat(), fc.boolean(), ({ specs, order, later }, cut, shuffle) => {
        const events = eventsOf(specs, order, later);
        const at = cut % events.length;
        const head = events.slice(0, at + 1).reduce((s, e, now) => referenceReduceTree(s, e, now), createTreeState());
        const copy = JSON.parse(JSON.stringify(head)) as TaskTreeState;
        const start: TaskTreeState = shuffle && copy.root !== undefined ? { ...copy, root: reversed(copy.root) } : copy;
        let indexed = start;
        let walked = start;
        for (const [k, event] of events.slice(at + 1).entries()) {
          indexed = reduceTree(indexed, event, at + 1 + k);
          walked = referenceReduceTree(walked, event, at + 1 + k);
        }
        expect(indexed).toEqual(walked);
      }),
      { numRuns: 150 },
    );
  });
});

describe('reduceTree with a multitask\'s tasks arriving last first', () => {
  it('puts each before its siblings without reading (so copying) their list, and ends in index order', () => {
    const n = 2_000;
    const task = (i: number): Spec => ({ call: 'main', taskIndex: i, multitask: true, queued: i % 2 === 0 });
    let state = reduceTree(createTreeState(), START, 0);
    for (let i = n; i > 1; i -= 1) state = reduceTree(state, firstSight(task(i), i), i);
    const reads = countReads(state.root!);
    const next = reduceTree(state, firstSight(task(1), 1), 1);
    const readsNext = countReads(next.root!);
    const after = reduceTree(next, delta(task(1), 1, 'first'), 2);
    expect(reads()).toBe(0);
    expect(readsNext()).toBe(0);
    expect(after.root!.children.map((c) => c.taskIndex)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(after.root!.children[0]).toMatchObject({ key: 'main/t1', tail: 'first' });
    expect(state.root!.children).toHaveLength(n - 1); // the state before keeps its own list
  });
});
