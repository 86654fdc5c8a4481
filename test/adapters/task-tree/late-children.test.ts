/**
 * A task first told of after the node it runs under has ended (its parent's end, a cancel,
 * `settleTree`), or restarted then: nothing runs under an ended run and no end will come for
 * it, so it showed running for ever under a finished run. The reducer keeps it, with what its
 * item said, but ends it at once: `failed` (`cancelled` under a cancelled parent), "came after
 * its parent run had ended"; its calls and approvals wait neither, and its own tasks neither.
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, settleTree, treeRows, waitingApprovals, type TaskTreeState, type TreeNode } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { expectNoneGoingUnderEnded } from './none-going-under-ended.js';

const LATE_TASK = 'came after its parent run had ended';
const LATE_CALL = 'came after its run had ended';
const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 };
const START: AgentEvent = { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' };
const mainEnd: AgentEvent = { type: 'RunEnd', runId: 'main', agentName: 'main', text: 'done', abnormal: false, metrics, steps: 1 };

/** `event` of task `t<i>` (run `r<i>`) under the run `parent`, wrapped in the frames of `outer` (outermost first). */
function task(i: number, event: AgentEvent, parent = 'main', outer: readonly number[] = []): AgentEvent {
  const wrapped: AgentEvent = { type: 'TaskWrap', runId: `r${i}`, agentName: 'w', parentRunId: parent, taskId: `t${i}`, taskIndex: 1, taskAgentName: 'w', taskDescription: `task ${i}`, multitask: false, event };
  return outer.reduceRight<AgentEvent>((inner, o, k) => ({
    type: 'TaskWrap', runId: `r${o}`, agentName: 'w', parentRunId: k === 0 ? 'main' : `r${outer[k - 1]}`, taskId: `t${o}`, taskIndex: 1, taskAgentName: 'w', taskDescription: `task ${o}`, multitask: false, event: inner,
  }), wrapped);
}
const started = (i: number, parent?: string, outer?: readonly number[]): AgentEvent => task(i, { type: 'RunStart', runId: `r${i}`, agentName: 'w', sessionId: `t${i}`, prompt: 'p' }, parent, outer);
const toolStart = (i: number, callId: string): AgentEvent => task(i, { type: 'ToolCallStart', runId: `r${i}`, agentName: 'w', step: 1, callId, toolName: 'bash', args: { command: 'ls' } });
const ask = (i: number, callId: string): AgentEvent => task(i, { type: 'HITLPending', runId: `r${i}`, agentName: 'w', approvalId: `a_${callId}`, callId, toolName: 'bash', args: { command: 'ls' }, reason: 'bash asks' });
const ended = (i: number): AgentEvent => task(i, { type: 'RunEnd', runId: `r${i}`, agentName: 'w', text: 'ok', abnormal: false, metrics, steps: 1 });
const cancelled = (i: number): AgentEvent => task(i, { type: 'RunCancelled', runId: `r${i}`, agentName: 'w', reason: 'stopped' });

function fold(events: readonly AgentEvent[], state: TaskTreeState = createTreeState(), from = 0): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, from + i), state);
}

const byKey = (state: TaskTreeState, key: string): TreeNode => treeRows(state).find((row) => row.node.key === key)!.node;

describe('a task told of after its parent ended', () => {
  const cases: Array<[string, TaskTreeState, 'failed' | 'cancelled']> = [
    ["its parent's RunEnd", fold([START, mainEnd]), 'failed'],
    ['the stream settled (cancelled)', settleTree(fold([START]), 1, 'stopped', 'cancelled'), 'cancelled'],
    ['the stream settled (failed)', settleTree(fold([START]), 1, 'lost'), 'failed'],
  ];

  it.each(cases)('after %s: kept, ended at once, its calls and approvals too', (_, before, status) => {
    const late = fold([started(1), toolStart(1, 'c1'), ask(1, 'c2')], before, 10);
    const node = byKey(late, 'main/t1');
    expect(node).toMatchObject({ taskId: 't1', runId: 'r1', agentName: 'w', description: 'task 1', status, error: LATE_TASK, endedAt: 10 });
    expect([node.currentTool, node.awaitingApproval, node.toolCallCount, node.waitingApprovalCount]).toEqual([undefined, undefined, 2, 0]);
    expect(node.tools).toMatchObject([
      { callId: 'c1', status, error: LATE_CALL },
      { callId: 'c2', status, error: LATE_CALL, approval: { approvalId: 'a_c2', reason: 'bash asks' } },
    ]);
    expect(waitingApprovals(late)).toEqual([]);
    expectNoneGoingUnderEnded(late);
  });

  it('after a cancel of its parent task: a new child of it is cancelled at once', () => {
    const late = fold([START, started(1), cancelled(1), started(2, 'r1', [1])]);
    expect(byKey(late, 'r1/t2')).toMatchObject({ status: 'cancelled', error: LATE_TASK, endedAt: 3 });
    expect(byKey(late, 'main')).toMatchObject({ status: 'running' }); // the run itself goes on
    expectNoneGoingUnderEnded(late);
  });

  it('nested: a grandchild (and the unseen task between) under a child that has ended', () => {
    // t1 ended; t3 arrives wrapped in t1 and a t2 never seen: t2 is made under t1, t3 under t2, both ended
    const late = fold([START, started(1), ended(1), started(3, 'r2', [1, 2])]);
    expect(byKey(late, 'main/t1')).toMatchObject({ status: 'done' });
    expect(byKey(late, 'r1/t2')).toMatchObject({ status: 'failed', error: LATE_TASK });
    expect(byKey(late, 'r2/t3')).toMatchObject({ status: 'failed', error: LATE_TASK });
    expectNoneGoingUnderEnded(late);
  });

  it('a first item that is its own end keeps that end (nothing lost)', () => {
    const late = fold([START, mainEnd, ended(1)]);
    expect(byKey(late, 'main/t1')).toMatchObject({ status: 'done', tail: 'ok', tokens: 3 });
    expect(byKey(late, 'main/t1').error).toBeUndefined();
  });

  it('a task restarted after its parent ended stays ended; once the parent restarts, it runs and waits again', () => {
    const ended1 = fold([START, started(1), mainEnd, started(1), toolStart(1, 'c1')]);
    expect(byKey(ended1, 'main/t1')).toMatchObject({ status: 'failed', error: LATE_TASK, toolCallCount: 1 });
    expect(byKey(ended1, 'main/t1').tools[0]).toMatchObject({ status: 'failed' });
    const resumed = fold([START, started(1), ask(1, 'c2')], ended1, 10);
    expect(byKey(resumed, 'main/t1').status).toBe('running');
    expect(waitingApprovals(resumed).map((a) => a.callId)).toEqual(['c2']);
  });

  it('1,000 late tasks, each with a call and an approval: all kept, none going, no card', () => {
    const events: AgentEvent[] = [];
    for (let i = 1; i <= 1000; i += 1) events.push(started(i), toolStart(i, `c${i}`), ask(i, `c${i}`));
    const late = fold(events, fold([START, mainEnd]), 10);
    const children = late.root!.children;
    expect(children).toHaveLength(1000);
    expect(children.filter((c) => c.status === 'failed' && c.error === LATE_TASK)).toHaveLength(1000);
    expect(children.every((c) => c.toolCallCount === 1 && c.waitingApprovalCount === 0 && c.tools[0]!.approval?.approvalId === `a_${c.tools[0]!.callId}`)).toBe(true);
    expect(waitingApprovals(late)).toEqual([]);
    expectNoneGoingUnderEnded(late);
    // a later end of the run changes none of them (they keep their own end)
    expect(fold([mainEnd], late, 5000).root!.children.every((c) => c.endedAt !== undefined && c.endedAt < 5000)).toBe(true);
  });
});
