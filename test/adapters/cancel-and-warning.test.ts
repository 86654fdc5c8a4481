import { describe, expect, it } from 'vitest';
import { createTreeState, plainLine, reduceTree, renderTree, toUiItem } from '../../src/adapters/index.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';

const wrap = (event: AgentEvent, taskId = 't1'): AgentEvent => ({
  type: 'TaskWrap', runId: event.runId, agentName: event.agentName, parentRunId: 'r0', taskId, taskIndex: 1,
  taskAgentName: event.agentName, taskDescription: 'slow job', multitask: false, event,
});
const childStart: AgentEvent = { type: 'RunStart', runId: 'r1', agentName: 'explore', sessionId: 't1', prompt: 'go' };
const childCancelled: AgentEvent = { type: 'RunCancelled', runId: 'r1', agentName: 'explore', reason: 'the task t1 was cancelled before it finished' };
const warning: AgentEvent = { type: 'Warning', runId: 'r0', agentName: 'main', code: 'session-entry-skipped', message: 'Skipped a stored message: entry 1 is null.' };

describe('adapters know RunCancelled and Warning', () => {
  it('the tree closes a cancelled task as cancelled, not running and not done', () => {
    const events: AgentEvent[] = [{ type: 'RunStart', runId: 'r0', agentName: 'main', sessionId: 's', prompt: 'p' }, wrap(childStart), wrap(childCancelled)];
    const state = events.reduce((s, e) => reduceTree(s, e, 0), createTreeState());
    const task = state.root!.children[0]!;
    expect(task).toMatchObject({ status: 'cancelled', error: 'the task t1 was cancelled before it finished' });
    const text = renderTree(state, { now: 0, width: 200, color: false });
    expect(text).toContain('⊘');
    expect(text).toContain('cancelled: the task t1 was cancelled');
  });

  it('UI items: task-cancelled carries the task fields; warning its code', () => {
    expect(toUiItem(wrap(childCancelled))).toMatchObject({ kind: 'task-cancelled', groupKey: 'r0/t1', taskId: 't1', depth: 1, reason: childCancelled.type === 'RunCancelled' ? childCancelled.reason : '' });
    expect(toUiItem(warning)).toMatchObject({ kind: 'warning', code: 'session-entry-skipped', depth: 0 });
  });

  it('plain lines: a cancelled task, a warning, and a failed run whose whole error is printed once', () => {
    expect(plainLine(wrap(childCancelled))).toBe('[explore#1] task cancelled: the task t1 was cancelled before it finished');
    expect(plainLine(warning)).toBe('[main] warning (session-entry-skipped): Skipped a stored message: entry 1 is null.');
    const long = `${'x'.repeat(300)} Jinja error: System message must be at the beginning.`;
    const line = plainLine({ type: 'RunEnd', runId: 'r0', agentName: 'main', text: '', abnormal: true, error: long, metrics: EMPTY_METRICS, steps: 1 });
    expect(line).toContain('System message must be at the beginning.'); // the useful end is not cut
    expect(line!.startsWith('[main] run failed: xxx')).toBe(true);
  });
});
