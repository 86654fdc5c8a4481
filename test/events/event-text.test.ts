import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { eventText } from '../../src/events/event-text.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';

const base = { runId: 'r', agentName: 'a' } as const;
const wrap = (event: AgentEvent): AgentEvent => ({
  type: 'TaskWrap', runId: 'c', agentName: 'a', parentRunId: 'p', taskId: 't', taskIndex: 1, taskAgentName: 'a', taskDescription: 'd', multitask: false, event,
});

describe('eventText (Solon getText)', () => {
  it('gives the text each kind of event carries, and "" for the others', () => {
    expect(eventText({ ...base, type: 'ReasonDelta', step: 1, kind: 'text', text: 'pie' })).toBe('pie');
    expect(eventText({ ...base, type: 'ReasonEnd', step: 1, text: 'whole', toolCalls: [], durationMs: 1 })).toBe('whole');
    expect(eventText({ ...base, type: 'ToolCallEnd', step: 1, callId: 'c', toolName: 'read', text: 'file body', durationMs: 1 })).toBe('file body');
    expect(eventText({ ...base, type: 'RunEnd', text: 'answer', abnormal: false, metrics: EMPTY_METRICS, steps: 1 })).toBe('answer');
    expect(eventText({ ...base, type: 'Warning', code: 'x', message: 'careful' })).toBe('careful');
    expect(eventText({ ...base, type: 'RunStart', sessionId: 's', prompt: 'p' })).toBe('');
    expect(eventText({ ...base, type: 'ActionEnd', step: 1 })).toBe('');
  });

  it('a TaskWrap gives its inner event\'s text, however deep (10,000 wrappers, no stack overflow)', () => {
    let event: AgentEvent = { ...base, type: 'ReasonDelta', step: 1, kind: 'text', text: 'deep' };
    expect(eventText(wrap(event))).toBe('deep');
    for (let i = 0; i < 10_000; i++) event = wrap(event);
    expect(eventText(event)).toBe('deep');
  });
});
