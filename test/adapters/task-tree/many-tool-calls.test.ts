/**
 * A node with thousands of tool calls: each tool item must not copy the node's list of calls
 * (every start copied it: 20,000 calls folded in quadratic time, seconds of a frozen page),
 * and the states stay immutable all the same: every state, and every array read from one,
 * keeps what it had; a node whose calls changed has a new `tools` array, one whose calls did
 * not keeps its array.
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, type TaskTreeState, type TreeNode } from '../../../src/adapters/task-tree/index.js';
import { copiedSlots } from '../../../src/adapters/task-tree/tool-list.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { countReads } from './count-reads.js';

const N = 20_000;
const START: AgentEvent = { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' };
const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 };

/** `event` of the task `w` (run `r1`) under the main run. */
function wrap(event: AgentEvent): AgentEvent {
  return { type: 'TaskWrap', runId: 'r1', agentName: 'w', parentRunId: 'main', taskId: 't1', taskIndex: 1, taskAgentName: 'w', taskDescription: 'task', multitask: false, event };
}

const start = (runId: string, i: number): AgentEvent => ({ type: 'ToolCallStart', runId, agentName: 'w', step: i, callId: `c${i}`, toolName: 'read', args: { path: `f${i}.ts` } });
const end = (runId: string, i: number): AgentEvent => ({ type: 'ToolCallEnd', runId, agentName: 'w', step: i, callId: `c${i}`, toolName: 'read', text: `ok ${i}`, durationMs: 1 });

/** The main run and its task, each with `n` tool calls started and ended. */
function manyCalls(n: number): TaskTreeState {
  let state = reduceTree(reduceTree(createTreeState(), START, 0), wrap({ type: 'RunStart', runId: 'r1', agentName: 'w', sessionId: 't1', prompt: 'p' }), 0);
  for (let i = 0; i < n; i += 1) {
    state = reduceTree(state, start('main', i), i);
    state = reduceTree(state, end('main', i), i);
    state = reduceTree(state, wrap(start('r1', i)), i);
    state = reduceTree(state, wrap(end('r1', i)), i);
  }
  return state;
}

const countToolReads = (node: TreeNode): (() => number) => countReads(node, 'tools');

describe('reduceTree on nodes of 20,000 tool calls', () => {
  const state = manyCalls(N);

  it('changes a call without reading (so copying) the list of the node, nor of its parent', () => {
    const root = state.root!;
    const task = root.children[0]!;
    const rootReads = countToolReads(root);
    const taskReads = countToolReads(task);
    let next = state;
    const items: AgentEvent[] = [
      wrap(start('r1', N)), { type: 'ReasonDelta', runId: 'main', agentName: 'main', step: 1, kind: 'text', text: 'hi' },
      wrap({ type: 'HITLPending', runId: 'r1', agentName: 'w', approvalId: 'a1', callId: `c${N}`, toolName: 'read', args: { path: 'x' }, reason: 'rule' }),
      wrap({ type: 'HITLDecided', runId: 'r1', agentName: 'w', approvalId: 'a1', callId: `c${N}`, toolName: 'read', decision: 'approve' }),
      wrap(end('r1', 7)), start('main', N), wrap({ type: 'RunEnd', runId: 'r1', agentName: 'w', text: 'done', abnormal: false, metrics, steps: 1 }),
    ];
    const seen: Array<() => number> = [];
    for (const [k, item] of items.entries()) {
      next = reduceTree(next, item, N + k);
      seen.push(countToolReads(next.root!), countToolReads(next.root!.children[0]!));
    }
    expect([rootReads(), taskReads(), ...seen.slice(0, -2).map((reads) => reads())]).toEqual(new Array(2 + (items.length - 1) * 2).fill(0));
    const after = next.root!.children[0]!;
    expect(after.tools).toHaveLength(N + 1);
    expect(after.tools[N]).toMatchObject({ callId: `c${N}`, status: 'failed', error: 'the run ended first', approval: { approvalId: 'a1', decision: 'approve' } });
    expect(after.tools[7]).toMatchObject({ status: 'done', result: 'ok 7' });
    expect(next.root!.tools[N]).toMatchObject({ callId: `c${N}`, status: 'running' });
  });

  it('keeps every earlier state, and every array read from one, as it was', () => {
    const firstTools = state.root!.tools; // read before the items below
    const states: TaskTreeState[] = [];
    let next = state;
    for (let i = 0; i < 20; i += 1) {
      next = reduceTree(next, start('main', N + i), N + i);
      next = reduceTree(next, end('main', N + i), N + i);
      states.push(next); // none read until the end
    }
    expect(state.root!.tools).toBe(firstTools);
    expect(firstTools).toHaveLength(N);
    states.forEach((s, k) => {
      expect(s.root!.tools).toHaveLength(N + k + 1);
      expect(s.root!.tools[N + k]).toMatchObject({ callId: `c${N + k}`, status: 'done' });
      expect(s.root!.tools[0]).toBe(firstTools[0]); // a call not changed is the same object
    });
    // the task's calls did not change: the same node, the same array
    expect(states[19]!.root!.children[0]).toBe(state.root!.children[0]);
    expect(states[19]!.root!.children[0]!.tools).toBe(state.root!.children[0]!.tools);
  });

  it('gives a node a new tools array when its calls change, and the same one when only its text does', () => {
    const delta: AgentEvent = { type: 'ReasonDelta', runId: 'main', agentName: 'main', step: 1, kind: 'text', text: 'x' };
    const texted = reduceTree(state, delta, 1);
    const called = reduceTree(texted, start('main', N), 2);
    expect(texted.root).not.toBe(state.root);
    expect(texted.root!.tools).toBe(state.root!.tools);
    expect(called.root!.tools).not.toBe(texted.root!.tools);
    expect(texted.root!.tools).toHaveLength(N);
  });

  it('forks: an earlier state reduced again goes its own way, and the later one goes on', () => {
    const base = state;
    // the branches use the same ids at different places: neither may find the other's
    const a = reduceTree(reduceTree(base, start('main', N), 1), start('main', N + 1), 2);
    const b = reduceTree(base, { ...start('main', N + 1), toolName: 'write' } as AgentEvent, 3);
    const a2 = reduceTree(reduceTree(a, end('main', N + 1), 4), end('main', 5), 4);
    const b2 = reduceTree(reduceTree(b, end('main', N + 1), 5), { type: 'RunEnd', runId: 'main', agentName: 'main', text: '', abnormal: false, metrics, steps: 1 }, 6);
    expect(a2.root!.tools.slice(N)).toMatchObject([{ callId: `c${N}`, status: 'running' }, { callId: `c${N + 1}`, toolName: 'read', status: 'done' }]);
    expect(b2.root!.tools.slice(N)).toMatchObject([{ callId: `c${N + 1}`, toolName: 'write', status: 'done' }]);
    expect(b.root!.tools[N]).toMatchObject({ toolName: 'write', status: 'running' });
    expect(base.root!.tools).toHaveLength(N);
    // the first branch goes on with what it had
    const a3 = reduceTree(a2, { type: 'RunEnd', runId: 'main', agentName: 'main', text: '', abnormal: false, metrics, steps: 1 }, 7);
    expect(a3.root!.tools.slice(N)).toMatchObject([{ status: 'failed', error: 'the run ended first' }, { status: 'done' }]);
  });

  it('gives states that copy, spread, clone and serialise as plain data', () => {
    const root = state.root!;
    expect(Object.keys(root)).toContain('tools');
    expect({ ...root }.tools).toEqual(root.tools);
    expect(structuredClone(root).tools[3]).toMatchObject({ callId: 'c3', result: 'ok 3' });
    const copy = JSON.parse(JSON.stringify(state)) as TaskTreeState;
    expect(copy.root!.tools).toHaveLength(N);
    // a tree made elsewhere (plain arrays of many calls) goes on as well
    const next = reduceTree(reduceTree(copy, start('main', N), 1), end('main', 9), 2);
    expect(next.root!.tools[N]).toMatchObject({ callId: `c${N}`, status: 'running' });
    expect(next.root!.tools[9]).toMatchObject({ status: 'done' });
    expect(copy.root!.tools[9]).toEqual(state.root!.tools[9]);
  });
});

describe('the work of a tool call', () => {
  it('stays flat however many calls the node has: 4 times the calls, about 4 times the slots copied', () => {
    const copiedFor = (n: number): number => {
      const before = copiedSlots();
      manyCalls(n);
      return copiedSlots() - before;
    };
    const small = copiedFor(2_000);
    const large = copiedFor(8_000);
    // each list change copies one path of 32-slot arrays: a few levels, whatever the length
    expect(large / (8_000 * 4)).toBeLessThan(150);
    expect(large / small).toBeLessThan(6); // a copy of the list per call would be 16
  });
});
