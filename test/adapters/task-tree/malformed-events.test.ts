/**
 * Events of a known type but the wrong shape (read back from a file or a broken server):
 * the tree skips them, the terminal line gives none; neither throws.
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, reduceTree } from '../../../src/adapters/task-tree/index.js';
import { plainLine } from '../../../src/adapters/terminal-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';

const start = { type: 'RunStart', runId: 'r', agentName: 'main', sessionId: 's', prompt: 'p' } as const;
const wrap = (event: unknown): AgentEvent =>
  ({ type: 'TaskWrap', runId: 'c', agentName: 'w', parentRunId: 'r', taskId: 't', taskIndex: 1, taskAgentName: 'w', taskDescription: 'd', multitask: false, event }) as AgentEvent;

const BROKEN: [string, AgentEvent][] = [
  ['a RunEnd without metrics', { type: 'RunEnd', runId: 'r', agentName: 'main' } as AgentEvent],
  ['a delta whose text is a number', { type: 'ReasonDelta', runId: 'r', agentName: 'main', step: 1, kind: 'text', text: 42 } as unknown as AgentEvent],
  ['a wrapped RunEnd without metrics', wrap({ type: 'RunEnd', runId: 'c', agentName: 'w', text: '', abnormal: false, steps: 1 })],
  ['a RunCancelled without a reason', wrap({ type: 'RunCancelled', runId: 'c', agentName: 'w' })],
  ['a tool end whose error is an object', { type: 'ToolCallEnd', runId: 'r', agentName: 'main', step: 1, callId: 'c', toolName: 't', text: '', error: {}, durationMs: 1 } as unknown as AgentEvent],
  ['a Compaction without numbers', { type: 'Compaction', runId: 'r', agentName: 'main', sessionId: 's', reason: 'manual' } as AgentEvent],
  ['a TaskWrap without its event', { ...wrap(undefined) }],
];

describe('events of the right type with the wrong shape', () => {
  it.each(BROKEN)('%s: reduceTree leaves the tree as it was, plainLine gives no line', (_label, event) => {
    const state = reduceTree(createTreeState(), start, 0);
    expect(reduceTree(state, event, 1)).toBe(state);
    expect(plainLine(event)).toBeUndefined();
  });

  it('the next well-formed event is folded as usual', () => {
    let state = reduceTree(createTreeState(), start, 0);
    for (const [, event] of BROKEN) state = reduceTree(state, event, 1);
    state = reduceTree(state, { type: 'RunEnd', runId: 'r', agentName: 'main', text: 'ok', abnormal: false, steps: 1, metrics: { promptTokens: 1, completionTokens: 1, totalTokens: 2, durationMs: 5, tasks: 0 } }, 2);
    expect(state.root).toMatchObject({ status: 'done', tokens: 2, children: [] });
    expect(state.result).toEqual({ text: 'ok', abnormal: false });
  });
});
