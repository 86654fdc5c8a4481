/**
 * The counts the reducer keeps as it goes equal a full walk of the calls: for any stream of
 * tool starts, ends, approvals asked and answered, bursts past 64 calls a node (a shared
 * list), ends, cancels and restarts, every node's `toolCallCount` and `waitingApprovalCount`
 * are what its calls say, and `waitingApprovals` lists what a walk of every call finds, read
 * as the stream goes or late, on the states of the line and on forks of them, and after the
 * stream is settled. A node that has ended (its end, its parent's, a cancel, the stream
 * settled) never waits for a human nor runs a call, even when a start or an approval request
 * of it comes after its end: such a call is ended at once. And no node ever goes (queued or
 * running) under one that has ended: a task first told of, or restarted, after its parent's
 * end is ended at once, whatever ended the parent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, settleTree, treeRows, waitingApprovals, type TaskTreeState, type WaitingApproval } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { expectNoneGoingUnderEnded } from './none-going-under-ended.js';

type Op =
  | { readonly kind: 'start' | 'end' | 'ask'; readonly node: number; readonly call: number }
  | { readonly kind: 'decide'; readonly node: number; readonly call: number; readonly approve: boolean }
  | { readonly kind: 'burst'; readonly node: number; readonly count: number; readonly asking: boolean }
  | { readonly kind: 'taskEnd' | 'cancel' | 'restart' | 'result'; readonly node: number };

const node = fc.integer({ min: 0, max: 2 }); // 0: the main run; 1, 2: its tasks
const call = fc.integer({ min: 0, max: 4 }); // few ids: reused, asked twice, answered late
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constantFrom('start', 'end', 'ask'), node, call }), weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('decide'), node, call, approve: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('burst'), node, count: fc.integer({ min: 1, max: 70 }), asking: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constantFrom('taskEnd', 'cancel', 'restart', 'result'), node }), weight: 1 },
);
const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 };
const START: AgentEvent = { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' };

/** `event` of node `k` (the main run, or its task `k`). */
function of(k: number, event: AgentEvent): AgentEvent {
  if (k === 0) return event;
  return { type: 'TaskWrap', runId: `r${k}`, agentName: 'w', parentRunId: 'main', taskId: `t${k}`, taskIndex: k, taskAgentName: 'w', taskDescription: `task ${k}`, multitask: false, event };
}

/** The events of `o`; `step` makes its ids and approvals unique. */
function eventsOf(o: Op, step: number): AgentEvent[] {
  const k = o.node;
  const base = { runId: k === 0 ? 'main' : `r${k}`, agentName: k === 0 ? 'main' : 'w' };
  const start = (callId: string): AgentEvent => of(k, { type: 'ToolCallStart', ...base, step, callId, toolName: 'read', args: { path: callId } });
  const ask = (callId: string): AgentEvent => of(k, { type: 'HITLPending', ...base, approvalId: `a${step}_${callId}`, callId, toolName: 'read', args: {}, reason: 'rule' });
  switch (o.kind) {
    case 'start':
      return [start(`c${o.call}`)];
    case 'end':
      return [of(k, { type: 'ToolCallEnd', ...base, step, callId: `c${o.call}`, toolName: 'read', text: 'ok', durationMs: 1 })];
    case 'ask':
      return [ask(`c${o.call}`)];
    case 'decide':
      return [of(k, { type: 'HITLDecided', ...base, approvalId: `d${step}`, callId: `c${o.call}`, toolName: 'read', decision: o.approve ? 'approve' : 'reject' })];
    case 'burst':
      return Array.from({ length: o.count }, (_, i) => `b${step}_${i}`).flatMap((id) => (o.asking ? [start(id), ask(id)] : [start(id)]));
    case 'taskEnd':
    case 'result':
      return k === 0 && o.kind === 'taskEnd' ? [] : [of(k, { type: 'RunEnd', ...base, text: '', abnormal: false, metrics, steps: 1 })];
    case 'cancel':
      return k === 0 ? [] : [of(k, { type: 'RunCancelled', ...base, reason: 'stopped' })];
    case 'restart':
      return [of(k, { type: 'RunStart', ...base, sessionId: `s${k}`, prompt: 'p' })];
  }
}

/** `waitingApprovals` as it was: a walk of every call of every node. */
function walkedApprovals(state: TaskTreeState): WaitingApproval[] {
  return treeRows(state).flatMap(({ node }) =>
    node.tools.flatMap((c) =>
      c.status === 'waiting' && c.approval !== undefined && c.approval.decision === undefined
        ? [{ approvalId: c.approval.approvalId, taskId: node.taskId, nodeKey: node.key, who: node.taskIndex === undefined ? node.agentName : `${node.agentName} #${node.taskIndex}`, callId: c.callId, toolName: c.toolName, args: c.args, reason: c.approval.reason }]
        : [],
    ),
  );
}

/**
 * Checks every node's counts and the waiting approvals of `state` against a walk, and that a
 * node that has ended has nothing going: no call waits for a human (no card) nor runs.
 */
function expectCountsOf(state: TaskTreeState): void {
  const counted = waitingApprovals(state); // first, before a walk makes any array
  for (const { node } of treeRows(state)) {
    expect(node.toolCallCount).toBe(node.tools.length);
    expect(node.waitingApprovalCount).toBe(node.tools.filter((c) => c.status === 'waiting' && c.approval?.decision === undefined).length);
    if (node.status === 'running' || node.status === 'queued') continue;
    expect(node.waitingApprovalCount).toBe(0);
    expect(node.tools.filter((c) => c.status === 'running' || c.status === 'waiting')).toEqual([]);
    expect([node.awaitingApproval, node.currentTool]).toEqual([undefined, undefined]);
    expect(counted.filter((a) => a.nodeKey === node.key)).toEqual([]);
  }
  expect(counted).toEqual(walkedApprovals(state));
  expectNoneGoingUnderEnded(state);
}

describe('the counts the reducer keeps', () => {
  it('equal a full walk of the calls, for any stream, on every state, forks and settled ones too', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 50 }), fc.boolean(), fc.nat(), (ops, readAsItGoes, forkAt) => {
        const events = [START, ...ops.flatMap((o, step) => eventsOf(o, step + 1))];
        const states: TaskTreeState[] = [];
        let state = createTreeState();
        events.forEach((event, now) => {
          state = reduceTree(state, event, now);
          if (readAsItGoes) expectCountsOf(state);
          states.push(state);
        });
        // an earlier state reduced again goes its own way: a call asked there, of an id the line used
        const at = forkAt % states.length;
        const fork = reduceTree(states[at]!, { type: 'HITLPending', runId: 'main', agentName: 'main', approvalId: 'fork', callId: 'c0', toolName: 'read', args: {}, reason: 'rule' }, -1);
        expectCountsOf(fork);
        states.forEach(expectCountsOf);
        const settled = [settleTree(state, events.length, 'lost', 'cancelled'), settleTree(state, events.length, 'lost')];
        for (const after of settled) {
          expectCountsOf(after);
          // what a stream still sends after the page settled it: a start and an approval request of each node
          // and of each task a restart first (task 3 is never seen before: new under the settled run)
          const late = [0, 1, 2, 3].flatMap((k) => [...(k === 0 ? [] : eventsOf({ kind: 'restart', node: k }, 99)), ...eventsOf({ kind: 'start', node: k, call: 9 }, 99), ...eventsOf({ kind: 'ask', node: k, call: 9 }, 99)]);
          expectCountsOf(late.reduce((s, e) => reduceTree(s, e, events.length + 1), after));
        }
      }),
      { numRuns: 120 },
    );
  });
});
