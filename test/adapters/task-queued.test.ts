import { describe, expect, it } from 'vitest';
import { toUiItem } from '../../src/adapters/ui-dto.js';
import { createTreeState, reduceTree, renderTree } from '../../src/adapters/terminal-tree/index.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';

const frame = { parentRunId: 'p', taskId: 't3', taskIndex: 3, taskAgentName: 'alpha', taskDescription: 'third', multitask: true } as const;
const wrap = (event: AgentEvent): AgentEvent => ({ type: 'TaskWrap', runId: 'c3', agentName: 'alpha', ...frame, event });
const EVENTS: AgentEvent[] = [
  { type: 'RunStart', runId: 'p', agentName: 'main', sessionId: 's', prompt: 'go' },
  { type: 'TaskQueued', runId: 'p', agentName: 'main', parentRunId: 'p', taskId: 't3', taskIndex: 3, taskAgentName: 'alpha', taskDescription: 'third' },
];
const START = wrap({ type: 'RunStart', runId: 'c3', agentName: 'alpha', sessionId: 't3', prompt: 'job 3' });
const END = wrap({ type: 'RunEnd', runId: 'c3', agentName: 'alpha', text: 'ok', abnormal: false, metrics: EMPTY_METRICS, steps: 1 });

describe('a queued multitask child, shown before it starts', () => {
  it('becomes a task-queued UI item with the waiting task\'s own fields, one level down', () => {
    expect(toUiItem(EVENTS[1]!)).toEqual({
      kind: 'task-queued', runId: 'p', agentName: 'alpha', depth: 1, ...frame, groupKey: 'p/t3',
    });
  });

  it('is a queued row (◌) of the terminal tree, then running on its start, then done, under the same key', () => {
    const at = (events: readonly AgentEvent[]) => events.reduce((s, e) => reduceTree(s, e, 0), createTreeState());
    const queued = at(EVENTS);
    expect(queued.root?.children.map((c) => [c.key, c.status])).toEqual([['p/t3', 'queued']]);
    expect(renderTree(queued, { now: 0, width: 80 })).toContain('◌ alpha#3 third');
    expect(at([...EVENTS, START]).root?.children.map((c) => c.status)).toEqual(['running']);
    expect(at([...EVENTS, START, END]).root?.children.map((c) => [c.key, c.status])).toEqual([['p/t3', 'done']]);
  });

  it('is a queued node of the page\'s UI items too, and the parent\'s own items still go to the parent', () => {
    const items = [...EVENTS, { type: 'ToolCallStart', runId: 'p', agentName: 'main', step: 1, callId: 'c', toolName: 'read', args: { path: 'a' } } as AgentEvent]
      .map((event) => toUiItem(event)!);
    const queued = items.reduce((s, item) => reduceTree(s, item, 0), createTreeState());
    expect(queued.root?.currentTool).toBe('read a');
    expect(queued.root?.children.map((c) => [c.key, c.status, c.runId])).toEqual([['p/t3', 'queued', '']]);
    expect(reduceTree(queued, toUiItem(START)!, 1).root?.children.map((c) => [c.status, c.runId])).toEqual([['running', 'c3']]);
  });
});
