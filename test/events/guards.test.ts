import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { isAgentEvent, isEventType, isRunEnd, isTaskWrap, isWellFormedEvent } from '../../src/events/guards.js';
import { runEnd, SAMPLE_EVENTS, wrap } from '../support/event-fixtures.js';

const childEnd = wrap(runEnd('child', 'explore'), { parentRunId: 'r1', taskId: 'task_1' });
const grandchildEnd = wrap(wrap(runEnd('grandchild', 'review'), { parentRunId: 'child', taskId: 'task_2' }), {
  parentRunId: 'r1',
  taskId: 'task_1',
  runId: 'child',
  agentName: 'explore',
});

describe('isTaskWrap / isRunEnd / isEventType', () => {
  it('isTaskWrap is true for wrapped events only', () => {
    expect(isTaskWrap(childEnd)).toBe(true);
    expect(isTaskWrap(grandchildEnd)).toBe(true);
    expect(SAMPLE_EVENTS.some(isTaskWrap)).toBe(false);
  });

  it('isRunEnd matches the unwrapped RunEnd only, never a child\'s wrapped one', () => {
    expect(isRunEnd(runEnd('r1'))).toBe(true);
    expect(isRunEnd(childEnd)).toBe(false);
    expect(isRunEnd(grandchildEnd)).toBe(false);
    expect(SAMPLE_EVENTS.filter(isRunEnd)).toHaveLength(1);
  });

  it('isEventType matches by type (a TaskWrap only as "TaskWrap") and narrows', () => {
    const delta: AgentEvent = SAMPLE_EVENTS.find((e) => e.type === 'ReasonDelta')!;
    expect(isEventType(delta, 'ReasonDelta')).toBe(true);
    if (isEventType(delta, 'ReasonDelta')) expect(delta.kind).toBe('text'); // compiles only if narrowed
    expect(isEventType(delta, 'ReasonEnd')).toBe(false);
    const wrappedDelta = wrap(delta, { parentRunId: 'p', taskId: 't' });
    expect(isEventType(wrappedDelta, 'ReasonDelta')).toBe(false);
    expect(isEventType(wrappedDelta, 'TaskWrap')).toBe(true);
  });
});

describe('isAgentEvent', () => {
  it('accepts every event type, wrapped once or twice, also after a JSON round trip', () => {
    const all = [...SAMPLE_EVENTS, childEnd, grandchildEnd];
    for (const event of all) {
      expect(isAgentEvent(event), event.type).toBe(true);
      expect(isAgentEvent(JSON.parse(JSON.stringify(event))), event.type).toBe(true);
    }
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'RunEnd'],
    ['a number', 42],
    ['an array', [runEnd('r1')]],
    ['an empty object', {}],
    ['an unknown type', { type: 'RunFinish', runId: 'r', agentName: 'main' }],
    ['a type that is not a string', { type: 1, runId: 'r', agentName: 'main' }],
    ['no runId', { type: 'RunEnd', agentName: 'main' }],
    ['a numeric runId', { type: 'RunStart', runId: 7, agentName: 'main' }],
    ['no agentName', { type: 'RunStart', runId: 'r' }],
    ['a TaskWrap without its event', { ...childEnd, event: undefined }],
    ['a TaskWrap around something that is not an event', { ...childEnd, event: { type: 'Nope', runId: 'c', agentName: 'x' } }],
    ['a TaskWrap around a broken TaskWrap', { ...grandchildEnd, event: { ...grandchildEnd.event, event: null } }],
  ])('rejects %s', (_label, value) => {
    expect(isAgentEvent(value)).toBe(false);
  });
});

describe('isWellFormedEvent', () => {
  it('accepts every sample event, wrapped once or twice, also after a JSON round trip', () => {
    for (const event of [...SAMPLE_EVENTS, childEnd, grandchildEnd]) {
      expect(isWellFormedEvent(event), event.type).toBe(true);
      expect(isWellFormedEvent(JSON.parse(JSON.stringify(event))), event.type).toBe(true);
    }
  });

  it.each([
    ['not an event at all', { type: 'RunEnd', agentName: 'main' }],
    ['a RunEnd without metrics', { type: 'RunEnd', runId: 'r', agentName: 'main', text: '', abnormal: false, steps: 1 }],
    ['a RunEnd with a metric that is not a number', { ...runEnd('r'), metrics: { ...runEnd('r').metrics, totalTokens: '2' } }],
    ['a RunEnd whose error is not a string', { ...runEnd('r'), abnormal: true, error: 42 }],
    ['a delta whose text is a number', { type: 'ReasonDelta', runId: 'r', agentName: 'main', step: 1, kind: 'text', text: 42 }],
    ['a Warning without a code', { type: 'Warning', runId: 'r', agentName: 'main', message: 'm' }],
    ['a tool start without arguments', { type: 'ToolCallStart', runId: 'r', agentName: 'main', step: 1, callId: 'c', toolName: 't' }],
    ['a Plan whose todos are not todos', { type: 'Plan', runId: 'r', agentName: 'main', todos: [1] }],
    ['a TaskWrap without its taskId', { ...childEnd, taskId: undefined }],
    ['a TaskWrap around a RunEnd without metrics', { ...childEnd, event: { ...childEnd.event, metrics: undefined } }],
    ['a TaskWrap two deep around a broken event', { ...grandchildEnd, event: { ...grandchildEnd.event, event: { type: 'RunCancelled', runId: 'g', agentName: 'x' } } }],
  ])('refuses %s', (_label, value) => {
    expect(isWellFormedEvent(value)).toBe(false);
  });

  it('walks 50,000 levels of TaskWrap without overflowing the stack', () => {
    let value: unknown = runEnd('r');
    for (let i = 0; i < 50_000; i += 1) value = { ...childEnd, event: value };
    expect(isWellFormedEvent(value)).toBe(true);
  });
});
