/**
 * An approval request (or a tool start) that comes after its task ended: no one will answer
 * it nor finish the call, so the reducer keeps the call, with its approval, ended at once
 * (`failed`, or `cancelled` in a cancelled task, "came after its run had ended"): the node's
 * counts say nothing waits, `waitingApprovals` lists no card, the row shows no approval nor
 * tool going. Whatever ended the node: its end, a cancel, its parent's end, `settleTree`. A
 * task restarted (resumed) waits for a human again as before.
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, settleTree, waitingApprovals, type TaskTreeState, type TreeNode } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { countReads } from './count-reads.js';

const START: AgentEvent = { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' };
const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 };
const base = { runId: 'r1', agentName: 'w' };
const LATE = 'came after its run had ended';

/** `event` of the task `w #1` (run `r1`) under the main run. */
function task(event: AgentEvent): AgentEvent {
  return { type: 'TaskWrap', runId: 'r1', agentName: 'w', parentRunId: 'main', taskId: 't1', taskIndex: 1, taskAgentName: 'w', taskDescription: 'task', multitask: false, event };
}

const start = (id: string): AgentEvent => task({ type: 'ToolCallStart', ...base, step: 1, callId: id, toolName: 'bash', args: { command: id } });
const end = (id: string): AgentEvent => task({ type: 'ToolCallEnd', ...base, step: 1, callId: id, toolName: 'bash', text: 'ok', durationMs: 1 });
const ask = (id: string): AgentEvent => task({ type: 'HITLPending', ...base, approvalId: `a_${id}`, callId: id, toolName: 'bash', args: { command: id }, reason: 'bash asks' });
const decide = (id: string): AgentEvent => task({ type: 'HITLDecided', ...base, approvalId: `a_${id}`, callId: id, toolName: 'bash', decision: 'approve' });
const taskEnd = task({ type: 'RunEnd', ...base, text: 'done', abnormal: false, metrics, steps: 1 });
const cancel = task({ type: 'RunCancelled', ...base, reason: 'stopped' });
const mainEnd: AgentEvent = { type: 'RunEnd', runId: 'main', agentName: 'main', text: '', abnormal: false, metrics, steps: 1 };

function fold(events: readonly AgentEvent[], state: TaskTreeState = createTreeState()): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, i), state);
}

const taskOf = (state: TaskTreeState): TreeNode => state.root!.children[0]!;

/** The task with `n` calls made and ended, and `c1` started: what each case ends, then asks late. */
function running(n: number): TaskTreeState {
  const events: AgentEvent[] = [START, task({ type: 'RunStart', ...base, sessionId: 't1', prompt: 'p' })];
  for (let i = 0; i < n; i += 1) events.push(start(`old${i}`), end(`old${i}`));
  return fold([start('c1')], fold(events));
}

/** Checks that nothing of `state`'s task waits nor runs, by its counts, its calls and the cards. */
function expectNothingGoing(state: TaskTreeState, calls: number): void {
  const node = taskOf(state);
  expect([node.toolCallCount, node.waitingApprovalCount]).toEqual([calls, 0]);
  expect(node.tools.filter((c) => c.status === 'running' || c.status === 'waiting')).toEqual([]);
  expect([node.awaitingApproval, node.currentTool]).toEqual([undefined, undefined]);
  expect(waitingApprovals(state)).toEqual([]);
}

describe.each([0, 1_000])('an approval asked after its task ended (%i calls before)', (n) => {
  const before = running(n);
  const cases: Array<[string, TaskTreeState, string, 'failed' | 'cancelled']> = [
    ['its end', fold([taskEnd], before), 'done', 'failed'],
    ['a cancel', fold([cancel], before), 'cancelled', 'cancelled'],
    ["its parent's end", fold([mainEnd], before), 'failed', 'failed'],
    ['the stream settled', settleTree(before, 9, 'lost', 'cancelled'), 'cancelled', 'cancelled'],
  ];

  it.each(cases)('after %s: kept on its call, ended, with no card and nothing waiting', (_, ended, status, callStatus) => {
    expect(waitingApprovals(fold([ask('c1')], before))).toHaveLength(1); // asked in time, it waits
    // a call seen before the end (settled by it) and one not seen at all
    const late = fold([ask('c1'), ask('c2')], ended);
    expectNothingGoing(late, n + 2);
    const node = taskOf(late);
    expect(node.status).toBe(status);
    expect(node.tools.slice(-2)).toMatchObject([
      { callId: 'c1', status: callStatus, error: LATE, approval: { approvalId: 'a_c1', reason: 'bash asks' } },
      { callId: 'c2', status: callStatus, error: LATE, approval: { approvalId: 'a_c2', reason: 'bash asks' } },
    ]);
    expect(node.tools.at(-1)!.approval!.decision).toBeUndefined();
    // its answer, if one comes, records the decision but does not make the call run
    const answered = fold([decide('c2')], late);
    expectNothingGoing(answered, n + 2);
    expect(taskOf(answered).tools.at(-1)).toMatchObject({ status: callStatus, approval: { decision: 'approve' } });
  });

  it.each(cases)('after %s: a late start is kept, ended, and not shown as running', (_, ended, __, callStatus) => {
    const late = fold([start('c3')], ended);
    expectNothingGoing(late, n + 2);
    expect(taskOf(late).tools.at(-1)).toMatchObject({ callId: 'c3', status: callStatus, error: LATE });
    // its end, if one comes, still records the result
    expect(taskOf(fold([end('c3')], late)).tools.at(-1)).toMatchObject({ callId: 'c3', status: 'done', result: 'ok' });
  });

  it('waits again once the task restarts (a resumed task under the same key)', () => {
    const resumed = fold([taskEnd, task({ type: 'RunStart', ...base, sessionId: 't1', prompt: 'again' }), start('c4'), ask('c4')], before);
    expect(taskOf(resumed).waitingApprovalCount).toBe(1);
    expect(waitingApprovals(resumed).map((a) => a.callId)).toEqual(['c4']);
    expect(taskOf(resumed).awaitingApproval).toBe('bash');
  });
});

describe('settleTree', () => {
  it('ends the waiting calls of the nodes it settles, and of an ended node made elsewhere', () => {
    const asked = fold([ask('c1'), ask('c2')], running(0));
    expect(waitingApprovals(asked)).toHaveLength(2);
    const settled = settleTree(asked, 9, 'lost');
    expectNothingGoing(settled, 2);
    expect(taskOf(settled).tools).toMatchObject([{ status: 'failed', error: 'lost' }, { status: 'failed', error: 'lost' }]);
    // a tree made elsewhere (an older page's state, by hand): an ended node holding a waiting call
    const stale = taskOf(asked);
    const handMade: TaskTreeState = { root: { ...asked.root!, children: [{ ...stale, status: 'done', endedAt: 5 }] } };
    expect(waitingApprovals(handMade)).toHaveLength(2);
    const cleared = settleTree(handMade, 9, 'lost', 'cancelled');
    expectNothingGoing(cleared, 2);
    expect(taskOf(cleared)).toMatchObject({ status: 'done', endedAt: 5 });
    expect(taskOf(cleared).tools).toMatchObject([{ status: 'cancelled', error: 'lost' }, { status: 'cancelled', error: 'lost' }]);
  });

  it('leaves a node of 10,000 calls that has ended and has nothing going without reading its calls', () => {
    const ended = fold([taskEnd], running(10_000));
    const late = fold([ask('c1')], ended);
    const reads = countReads(taskOf(late), 'tools');
    expect([taskOf(late).toolCallCount, taskOf(late).waitingApprovalCount]).toEqual([10_001, 0]);
    expect(waitingApprovals(late)).toEqual([]);
    expect(reads()).toBe(0);
  });
});
