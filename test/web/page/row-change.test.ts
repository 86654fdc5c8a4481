import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { rowChange } from '../../../src/web/page/row-change.js';

const metrics = { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 };

function task(i: number, event: AgentEvent): AgentEvent {
  return { type: 'TaskWrap', runId: `c${i}`, agentName: 'w', parentRunId: 'main', taskId: `t${i}`, taskIndex: i, taskAgentName: 'w', taskDescription: `task ${i}`, multitask: true, event };
}

function fold(events: readonly AgentEvent[], state: TaskTreeState = createTreeState()): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, i), state);
}

describe("the page's redraw: which rows change", () => {
  it('writes a row never drawn, or whose node changed; of an unchanged one only the time, and only while it runs', () => {
    const before = fold([
      { type: 'RunStart', runId: 'main', agentName: 'main', sessionId: 's', prompt: 'p' },
      task(1, { type: 'RunStart', runId: 'c1', agentName: 'w', sessionId: 't1', prompt: 'p' }),
      task(2, { type: 'RunStart', runId: 'c2', agentName: 'w', sessionId: 't2', prompt: 'p' }),
      task(1, { type: 'RunEnd', runId: 'c1', agentName: 'w', text: 'ok', abnormal: false, metrics, steps: 1 }),
    ]);
    const after = fold([task(2, { type: 'ReasonDelta', runId: 'c2', agentName: 'w', step: 1, kind: 'text', text: 'hi' })], before);
    const [done, going] = before.root!.children;
    const [doneAfter, goingAfter] = after.root!.children;

    expect(rowChange(undefined, done!)).toBe('all');
    expect(doneAfter).toBe(done); // nothing happened to task 1: the reducer kept its node
    expect(rowChange(done, doneAfter!)).toBe('none');
    expect(rowChange(going, goingAfter!)).toBe('all'); // its text moved
    expect(rowChange(goingAfter, goingAfter!)).toBe('time'); // a clock tick: its time goes on
    expect(rowChange(before.root, after.root!)).toBe('all'); // a node above a change is a new node
  });
});
