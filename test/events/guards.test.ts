import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { isAgentEvent, isEventType, isRunEnd, isTaskWrap } from '../../src/events/guards.js';
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
