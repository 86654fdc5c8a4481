/**
 * The approvals waiting in a whole subtree (`waitingInSubtree`), which the reducer keeps so
 * that a view reads one number (`waitingApprovalTotal`) and `waitingApprovals` goes down only
 * where some wait: while one approval waited among 9,999 tasks, each task's end walked the
 * whole tree and made the root's child array again (252 s for the ends instead of 1.3 s).
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, settleTree, treeRows, waitingApprovals, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import { waitingApprovalTotal } from '../../../src/adapters/task-tree/tree-queries.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { FixtureRun } from '../fixtures.js';
import { countReads } from './count-reads.js';

const bash = (callId: string) => ({ callId, name: 'bash', args: { command: callId } });

function fold(events: readonly AgentEvent[], state: TaskTreeState = createTreeState()): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, i), state);
}

/** What waits, found the slow way: every node, every call. */
function walked(state: TaskTreeState): string[] {
  return treeRows(state).flatMap(({ node }) => node.tools.filter((c) => c.status === 'waiting' && c.approval?.decision === undefined).map((c) => c.approval!.approvalId));
}

/** Every node's count is its own waiting calls plus its children's counts. */
function expectCountsKept(state: TaskTreeState): void {
  for (const { node } of treeRows(state)) {
    expect(node.waitingInSubtree).toBe(node.waitingApprovalCount + node.children.reduce((sum, child) => sum + child.waitingInSubtree!, 0));
  }
  expect(waitingApprovals(state).map((a) => a.approvalId)).toEqual(walked(state));
  expect(waitingApprovalTotal(state)).toBe(walked(state).length);
}

describe('approvals waiting in a subtree', () => {
  it('with one approval waiting among 2,000 tasks, neither query reads the root\'s children', () => {
    const main = new FixtureRun('m', 'main');
    const tasks = Array.from({ length: 2000 }, (_, i) => main.task({ taskId: `t${i}`, agentName: 'w', description: `job ${i}`, taskIndex: i + 1, multitask: true }));
    let state = fold([main.start('go'), ...tasks.map((t) => t.start('x')), tasks[1500]!.approvalPending(bash('c1'), 'asks')]);
    state = fold(tasks.slice(0, 10).map((t) => t.end('done')), state); // a state the reducer made after the ask
    const reads = countReads(state.root!);
    expect(waitingApprovalTotal(state)).toBe(1);
    expect(waitingApprovals(state).map((a) => [a.who, a.callId])).toEqual([['w #1501', 'c1']]);
    expect(reads()).toBe(0); // the old walk made the root's array of 2,000 children per call
    expectCountsKept(state);
  });

  it('is kept through asks, decisions, nested tasks, ends, cancels and settling', () => {
    const main = new FixtureRun('m', 'main');
    const a = main.task({ taskId: 'a', agentName: 'w', description: 'a' });
    const b = a.task({ taskId: 'b', agentName: 'w', description: 'b' });
    const c = main.task({ taskId: 'c', agentName: 'w', description: 'c' });
    const steps: AgentEvent[] = [
      main.start('go'), a.start('x'), b.start('y'), c.start('z'),
      b.approvalPending(bash('b1'), 'asks'), b.approvalPending(bash('b2'), 'asks'), main.approvalPending(bash('m1'), 'asks'),
      c.approvalPending(bash('c1'), 'asks'), b.approvalDecided(bash('b1'), 'approve'), c.wrap({ type: 'RunCancelled', runId: 'run-c', agentName: 'w', reason: 'stop' }),
      a.end('done'), // ends b too: its waiting call is settled
      main.approvalDecided(bash('m1'), 'reject'), main.approvalPending(bash('m2'), 'asks'),
    ];
    let state = createTreeState();
    steps.forEach((event, i) => {
      state = reduceTree(state, event, i);
      expectCountsKept(state);
    });
    expect(waitingApprovalTotal(state)).toBe(1);
    const settled = settleTree(state, 99, 'stopped', 'cancelled');
    expectCountsKept(settled);
    expect(waitingApprovalTotal(settled)).toBe(0);
  });

  it('a tree made elsewhere, without the counts, is looked into', () => {
    const main = new FixtureRun('m', 'main');
    const t = main.task({ taskId: 'a', agentName: 'w', description: 'a' });
    const made = fold([main.start('go'), t.start('x'), t.approvalPending(bash('c1'), 'asks')]);
    const copy: TaskTreeState = JSON.parse(JSON.stringify(made, (key, value: unknown) => (key === 'waitingInSubtree' ? undefined : value)));
    expect(copy.root!.waitingInSubtree).toBeUndefined();
    expect(waitingApprovalTotal(copy)).toBe(1);
    expect(waitingApprovals(copy).map((x) => x.callId)).toEqual(['c1']);
  });
});
