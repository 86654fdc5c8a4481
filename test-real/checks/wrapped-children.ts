/**
 * The event-order rule of delegation, checked on a real run: every `TaskWrap` sits between
 * the parent's `ToolCallStart` and `ToolCallEnd` of the call that made it, names the parent
 * run, and each task's events run from its `RunStart` to its `RunEnd`.
 */
import { expect } from 'vitest';
import type { AgentEvent, RunStartEvent, TaskWrapEvent } from '../../src/events/agent-event.js';
import { isTaskWrap } from '../../src/events/guards.js';
import { describeRun } from '../support/real-engine.js';

/** Checks the rule and returns the wrapped events, in order. */
export function expectWrappedChildren(events: readonly AgentEvent[]): TaskWrapEvent[] {
  const parent = events[0] as RunStartEvent;
  const account = describeRun(events);
  let open: string | undefined; // the callId of the delegation call in progress
  const wrapped: TaskWrapEvent[] = [];
  for (const event of events) {
    if (isTaskWrap(event)) {
      expect(open, `a TaskWrap outside any ToolCallStart..ToolCallEnd:\n${account}`).toBeDefined();
      expect(event.parentRunId).toBe(parent.runId);
      wrapped.push(event);
    } else if (event.type === 'ToolCallStart') open = event.callId;
    else if (event.type === 'ToolCallEnd') {
      expect(event.callId).toBe(open);
      open = undefined;
    }
  }
  const byTask = new Map<string, string[]>();
  for (const w of wrapped) byTask.set(w.taskId, [...(byTask.get(w.taskId) ?? []), w.event.type]);
  expect(byTask.size, `no child ran:\n${account}`).toBeGreaterThan(0);
  for (const [taskId, types] of byTask) {
    expect([types[0], types.at(-1)], `task ${taskId}: ${types.join(' ')}`).toEqual(['RunStart', 'RunEnd']);
    expect(types.filter((t) => t === 'RunEnd'), `task ${taskId}: ${types.join(' ')}`).toHaveLength(1);
  }
  return wrapped;
}
