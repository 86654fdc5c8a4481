/**
 * The one reducer the page and the terminal tree share: what it keeps per task (tool calls in
 * order with arguments, results, errors and approvals; one status at a time; tokens; times),
 * and that UI items and events fold to the same tree.
 */
import { describe, expect, it } from 'vitest';
import { toUiItem } from '../../../src/adapters/ui-dto.js';
import { createTreeState, reduceTree, settleTree, tokensByAgent, treeRows, waitingApprovals, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { call, FixtureRun, multitaskRun } from '../fixtures.js';

function fold(events: readonly AgentEvent[], state: TaskTreeState = createTreeState(), from = 0): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, from + i * 10), state);
}

/** Every status in the tree, and every tool call's, flattened. */
function statuses(state: TaskTreeState): string[] {
  return treeRows(state).flatMap(({ node }) => [node.status, ...node.tools.map((t) => `tool:${t.status}`)]);
}

describe('reduceTree over UI items (the page) and events (the terminal)', () => {
  it('folds UI items and the events they come from to the same tree', () => {
    const { events } = multitaskRun();
    const items = events.map(toUiItem).filter((item) => item !== undefined);
    const byItems = items.reduce((s, item, i) => reduceTree(s, item, i), createTreeState());
    const byEvents = events.reduce((s, e, i) => reduceTree(s, e, i), createTreeState());
    expect(structuredClone(byItems.root?.children.map((c) => ({ ...c, startedAt: 0, endedAt: 0 })))).toEqual(
      structuredClone(byEvents.root?.children.map((c) => ({ ...c, startedAt: 0, endedAt: 0 }))),
    );
    expect(byItems.result).toEqual(byEvents.result);
  });

  it('keeps each task\'s tool calls in order: arguments, result or error, duration', () => {
    const state = fold(multitaskRun().events);
    const [a, , c] = state.root!.children;
    expect(a!.tools).toEqual([{ callId: 'a1', toolName: 'read', args: { path: 'test/index.ts' }, label: 'read test/index.ts', step: 1, status: 'done', result: 'export {}', durationMs: expect.any(Number) }]);
    expect(c!.tools[0]).toMatchObject({ toolName: 'bash', args: { command: 'git log -3' }, status: 'failed', error: 'not a git repository' });
    expect(state.root!.tools.map((t) => [t.toolName, t.status])).toEqual([['multitask', 'done']]);
  });

  it('keeps approval decisions with the calls, a rejected call with its comment, and no pending card after a decision', () => {
    const main = new FixtureRun('r', 'main');
    const one = main.task({ taskId: 't1', agentName: 'general', description: 'One', taskIndex: 1, multitask: true });
    const two = main.task({ taskId: 't2', agentName: 'general', description: 'Two', taskIndex: 2, multitask: true });
    const rm = call('c1', 'bash', { command: 'rm -rf build' });
    const push = call('c1', 'bash', { command: 'git push' }); // the same call id in another task
    const asked = fold([main.start('go'), one.start('a'), two.start('b'), one.toolStart(1, rm), one.approvalPending(rm, 'bash asks'), two.toolStart(1, push), two.approvalPending(push, 'bash asks')]);
    expect(waitingApprovals(asked).map((a) => [a.approvalId, a.taskId, a.who, a.args])).toEqual([
      ['approval_c1', 't1', 'general #1', { command: 'rm -rf build' }],
      ['approval_c1', 't2', 'general #2', { command: 'git push' }],
    ]);
    const decided = fold([one.approvalDecided(rm, 'reject', 'not here'), one.toolEnd(1, rm, 'ERROR: rejected', 'rejected: not here'), two.approvalDecided(push, 'approve')], asked, 100);
    expect(decided.root!.children[0]!.tools[0]).toMatchObject({ status: 'failed', error: 'rejected: not here', approval: { decision: 'reject', comment: 'not here', reason: 'bash asks' } });
    expect(decided.root!.children[1]!.tools[0]).toMatchObject({ status: 'running', approval: { decision: 'approve' } });
    expect(waitingApprovals(decided)).toEqual([]);
  });

  it('shows a cancelled task as cancelled only, its running tool and its own tasks too; its siblings go on', () => {
    const main = new FixtureRun('r', 'main');
    const one = main.task({ taskId: 't1', agentName: 'general', description: 'One', taskIndex: 1, multitask: true });
    const two = main.task({ taskId: 't2', agentName: 'general', description: 'Two', taskIndex: 2, multitask: true });
    const grandchild = one.task({ taskId: 't1a', agentName: 'explore', description: 'Deeper' });
    const read = call('g1', 'read', { path: 'a' });
    const cancelled = one.wrap({ type: 'RunCancelled', runId: one.runId, agentName: 'general', reason: 'cancelled by the user' });
    const state = fold([main.start('go'), one.start('a'), two.start('b'), grandchild.start('c'), grandchild.toolStart(1, read), cancelled]);
    const [first, second] = state.root!.children;
    expect(first).toMatchObject({ status: 'cancelled', error: 'cancelled by the user' });
    expect(first!.children[0]).toMatchObject({ status: 'cancelled', error: 'cancelled with its parent' });
    expect(first!.children[0]!.tools[0]?.status).toBe('cancelled');
    expect(second!.status).toBe('running');
  });

  it('settles a stopped run as cancelled, never also failed', () => {
    const main = new FixtureRun('r', 'main');
    const one = main.task({ taskId: 't1', agentName: 'general', description: 'One' });
    const bash = call('c', 'bash', { command: 'make' });
    const state = settleTree(fold([main.start('go'), one.start('a'), one.toolStart(1, bash), one.approvalPending(bash, 'asks')]), 500, 'stopped', 'cancelled');
    expect(statuses(state)).toEqual(['cancelled', 'cancelled', 'tool:cancelled']);
    expect(waitingApprovals(state)).toEqual([]);
  });

  it('a queued task cancelled before it starts: queued, then cancelled, having run nothing', () => {
    const main = new FixtureRun('p', 'main');
    const waiting = main.task({ taskId: 't3', agentName: 'alpha', description: 'third', taskIndex: 3, multitask: true }, 'c3');
    const queued: AgentEvent = { type: 'TaskQueued', runId: 'p', agentName: 'main', parentRunId: 'p', taskId: 't3', taskIndex: 3, taskAgentName: 'alpha', taskDescription: 'third' };
    const before = fold([main.start('go'), queued]);
    expect(before.root!.children[0]).toMatchObject({ status: 'queued', queuedAt: 10, taskId: 't3' });
    const after = fold([waiting.start('job'), waiting.wrap({ type: 'RunCancelled', runId: 'c3', agentName: 'alpha', reason: 'cancelled while queued' })], before, 100);
    expect(after.root!.children[0]).toMatchObject({ status: 'cancelled', error: 'cancelled while queued', tools: [], queuedAt: 10, endedAt: 110 });
  });

  it('counts the tokens each agent used itself, and records start and end times for a timeline', () => {
    const state = fold(multitaskRun().events);
    // main's 1,200 include its tasks' 550: main itself used 650; explore 300 + 200; bash 50
    expect([...tokensByAgent(state)]).toEqual([['main', 650], ['explore', 500], ['bash', 50]]);
    for (const { node } of treeRows(state)) {
      expect(node.endedAt).toBeGreaterThan(node.startedAt);
    }
    const [a, b] = state.root!.children;
    expect(a!.startedAt).toBeLessThan(b!.endedAt!); // they overlapped: a picture can show it
    expect(b!.startedAt).toBeLessThan(a!.endedAt!);
  });
});

describe('row order', () => {
  it('puts a multitask child at its index among its call\'s children, however late its first item comes', () => {
    const main = new FixtureRun('p', 'main');
    const queued = (index: number): AgentEvent => ({ type: 'TaskQueued', runId: 'p', agentName: 'main', parentRunId: 'p', taskId: `t${index}`, taskIndex: index, taskAgentName: 'alpha', taskDescription: `job ${index}` });
    const first = main.task({ taskId: 't1', agentName: 'alpha', description: 'job 1', taskIndex: 1, multitask: true });
    const state = fold([main.start('go'), queued(2), queued(3), first.start('one')]);
    expect(state.root!.children.map((c) => [c.taskIndex, c.status])).toEqual([[1, 'running'], [2, 'queued'], [3, 'queued']]);
  });
});
