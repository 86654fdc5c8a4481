/**
 * The counts a view reads instead of a node's calls (`toolCallCount`, `waitingApprovalCount`)
 * and `waitingApprovals`: right after every kind of item, on a node of a few calls (a plain
 * array) and of 10,000 (a shared list), and read without touching the node's list of calls:
 * a page asks them every frame, and reading `tools` of a node of 20,000 calls made an array
 * of all of them for each new state of the node.
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, settleTree, waitingApprovals, type TaskTreeState, type TreeNode } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { countReads } from './count-reads.js';

const START: AgentEvent = { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' };
const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 };
const base = { runId: 'r1', agentName: 'w' };

/** `event` of the task `w #1` (run `r1`) under the main run. */
function task(event: AgentEvent): AgentEvent {
  return { type: 'TaskWrap', runId: 'r1', agentName: 'w', parentRunId: 'main', taskId: 't1', taskIndex: 1, taskAgentName: 'w', taskDescription: 'task', multitask: false, event };
}

const start = (id: string): AgentEvent => task({ type: 'ToolCallStart', ...base, step: 1, callId: id, toolName: 'bash', args: { command: id } });
const end = (id: string): AgentEvent => task({ type: 'ToolCallEnd', ...base, step: 1, callId: id, toolName: 'bash', text: 'ok', durationMs: 1 });
const ask = (id: string): AgentEvent => task({ type: 'HITLPending', ...base, approvalId: `a_${id}`, callId: id, toolName: 'bash', args: { command: id }, reason: 'bash asks' });
const decide = (id: string, decision: 'approve' | 'reject'): AgentEvent => task({ type: 'HITLDecided', ...base, approvalId: `a_${id}`, callId: id, toolName: 'bash', decision });

function fold(events: readonly AgentEvent[], state: TaskTreeState = createTreeState()): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, i), state);
}

/** The task's node. */
const taskOf = (state: TaskTreeState): TreeNode => state.root!.children[0]!;

/** What the counts must say, from a walk of the node's calls. */
function walked(node: TreeNode): [number, number] {
  return [node.tools.length, node.tools.filter((c) => c.status === 'waiting' && c.approval !== undefined && c.approval.decision === undefined).length];
}

/** The task with `n` calls already made (started and ended), before the calls a test adds. */
function withCalls(n: number): TaskTreeState {
  const events: AgentEvent[] = [START, task({ type: 'RunStart', ...base, sessionId: 't1', prompt: 'p' })];
  for (let i = 0; i < n; i += 1) events.push(start(`old${i}`), end(`old${i}`));
  return fold(events);
}

describe.each([0, 10_000])('the counts of a node with %i calls before', (n) => {
  const before = withCalls(n);

  it('follow a start, an end, an approval asked (of a call seen or not), answered either way, and a cancel', () => {
    const steps: Array<[AgentEvent, number, number]> = [
      [start('c1'), n + 1, 0],
      [ask('c1'), n + 1, 1],
      [ask('c2'), n + 2, 2], // a call whose start was not seen is added
      [start('c3'), n + 3, 2],
      [decide('c1', 'approve'), n + 3, 1],
      [end('c1'), n + 3, 1],
      [ask('c3'), n + 3, 2],
      [decide('c3', 'reject'), n + 3, 1],
      [end('c3'), n + 3, 1],
      [task({ type: 'RunCancelled', ...base, reason: 'stopped' }), n + 3, 0],
    ];
    let state = before;
    for (const [event, count, waiting] of steps) {
      state = reduceTree(state, event, 1);
      const node = taskOf(state);
      expect([node.toolCallCount, node.waitingApprovalCount]).toEqual([count, waiting]);
      expect(walked(node)).toEqual([count, waiting]);
      expect(waitingApprovals(state)).toHaveLength(waiting);
    }
    expect(taskOf(state).tools.at(-2)).toMatchObject({ callId: 'c2', status: 'cancelled' });
  });

  it('fall to none waiting when the run ends, its parent ends, or the stream is settled', () => {
    const asked = fold([start('c1'), ask('c1'), ask('c2')], before);
    expect(taskOf(asked).waitingApprovalCount).toBe(2);
    const ends: TaskTreeState[] = [
      reduceTree(asked, task({ type: 'RunEnd', ...base, text: '', abnormal: false, metrics, steps: 1 }), 9),
      reduceTree(asked, { type: 'RunEnd', runId: 'main', agentName: 'main', text: '', abnormal: false, metrics, steps: 1 }, 9),
      settleTree(asked, 9, 'lost', 'cancelled'),
    ];
    for (const ended of ends) {
      expect([taskOf(ended).toolCallCount, taskOf(ended).waitingApprovalCount]).toEqual([n + 2, 0]);
      expect(walked(taskOf(ended))).toEqual([n + 2, 0]);
      expect(waitingApprovals(ended)).toEqual([]);
    }
    expect(taskOf(asked).waitingApprovalCount).toBe(2); // the state before is kept as it was
  });
});

describe('a node of 10,000 calls each asked for approval', () => {
  const N = 10_000;
  const events: AgentEvent[] = [START, task({ type: 'RunStart', ...base, sessionId: 't1', prompt: 'p' })];
  for (let i = 0; i < N; i += 1) events.push(start(`c${i}`), ask(`c${i}`));
  for (let i = 0; i < N; i += 2) events.push(decide(`c${i}`, i % 4 === 0 ? 'approve' : 'reject'));
  const state = fold(events);

  it('counts the half still waiting, and lists them in order', () => {
    const node = taskOf(state);
    expect([node.toolCallCount, node.waitingApprovalCount]).toEqual([N, N / 2]);
    const waiting = waitingApprovals(state);
    expect(waiting.map((a) => a.callId)).toEqual(Array.from({ length: N / 2 }, (_, k) => `c${2 * k + 1}`));
    expect(waiting[0]).toEqual({ approvalId: 'a_c1', taskId: 't1', nodeKey: 'main/t1', who: 'w #1', callId: 'c1', toolName: 'bash', args: { command: 'c1' }, reason: 'bash asks' });
    expect(walked(node)).toEqual([N, N / 2]);
  });

  it('answers the per-frame questions without reading any node\'s list of calls', () => {
    // a frame after an item: a new state, whose changed node has not had its calls read
    const next = reduceTree(state, decide('c1', 'approve'), 1);
    const reads = [countReads(next.root!, 'tools'), countReads(taskOf(next), 'tools')];
    expect(taskOf(next).toolCallCount).toBe(N);
    expect(taskOf(next).waitingApprovalCount).toBe(N / 2 - 1);
    expect(waitingApprovals(next)).toHaveLength(N / 2 - 1);
    expect(reads.map((r) => r())).toEqual([0, 0]);
    // a node with none waiting is skipped without a look at its calls either
    const none = settleTree(next, 2, 'lost');
    const noneReads = countReads(taskOf(none), 'tools');
    expect(waitingApprovals(none)).toEqual([]);
    expect(noneReads()).toBe(0);
  });

  it('keeps counting right on an earlier state reduced again (a fork)', () => {
    const later = reduceTree(state, decide('c1', 'approve'), 1);
    const fork = reduceTree(state, decide('c3', 'reject'), 1);
    expect(taskOf(fork).waitingApprovalCount).toBe(N / 2 - 1);
    expect(waitingApprovals(fork).map((a) => a.callId).slice(0, 2)).toEqual(['c1', 'c5']);
    expect(waitingApprovals(later).map((a) => a.callId).slice(0, 2)).toEqual(['c3', 'c5']);
    expect(waitingApprovals(state).map((a) => a.callId).slice(0, 2)).toEqual(['c1', 'c3']);
  });
});

describe('a tree made elsewhere', () => {
  it('goes on counting from a copy (JSON), and lists what waits in a node that lacks the counts', () => {
    const asked = fold([start('c1'), ask('c1'), start('c2')], withCalls(100));
    const copy = JSON.parse(JSON.stringify(asked)) as TaskTreeState;
    expect([taskOf(copy).toolCallCount, taskOf(copy).waitingApprovalCount]).toEqual([102, 1]);
    const next = fold([ask('c2'), end('old5')], copy);
    expect([taskOf(next).toolCallCount, taskOf(next).waitingApprovalCount]).toEqual([102, 2]);
    // made by hand, without the counts (plain JavaScript): what waits is found by a look at its calls
    const { toolCallCount: _c, waitingApprovalCount: _w, ...bare } = taskOf(copy);
    const handMade = { root: { ...copy.root!, children: [bare as TreeNode] } };
    expect(waitingApprovals(handMade).map((a) => a.callId)).toEqual(['c1']);
    const counted = reduceTree(handMade, ask('c2'), 1);
    expect([taskOf(counted).toolCallCount, taskOf(counted).waitingApprovalCount]).toEqual([102, 2]);
  });
});
