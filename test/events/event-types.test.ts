import { of, type Observable } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import type { AgentEvent, EventOfType, ReasonDeltaEvent, RunEndEvent, TaskWrapEvent, ToolCallEndEvent } from '../../src/index.js';
import { isRunEnd, isTaskWrap, ofEventType, terminalRunEnd, unwrapTaskEvents, type UnwrappedEvent } from '../../src/index.js';
import { isEventType } from '../../src/events/guards.js';

// Type tests: `npm run typecheck` (tsc over test/) fails when a generic helper stops narrowing.

describe('the generic event helpers narrow their types', () => {
  it('EventOfType picks one interface of the union', () => {
    expectTypeOf<EventOfType<'RunEnd'>>().toEqualTypeOf<RunEndEvent>();
    expectTypeOf<EventOfType<'ReasonDelta' | 'ToolCallEnd'>>().toEqualTypeOf<ReasonDeltaEvent | ToolCallEndEvent>();
    expectTypeOf<EventOfType<'TaskWrap'>['event']>().toEqualTypeOf<AgentEvent>();
  });

  it('isEventType, isRunEnd and isTaskWrap narrow an AgentEvent', () => {
    const event = { type: 'ActionEnd', runId: 'r', agentName: 'a', step: 1 } as AgentEvent;
    if (isEventType(event, 'ReasonDelta')) expectTypeOf(event).toEqualTypeOf<ReasonDeltaEvent>();
    if (isRunEnd(event)) expectTypeOf(event).toEqualTypeOf<RunEndEvent>();
    if (isTaskWrap(event)) expectTypeOf(event.event).toEqualTypeOf<AgentEvent>();
    expectTypeOf(isTaskWrap).guards.toEqualTypeOf<TaskWrapEvent>();
  });

  it('ofEventType gives an Observable of exactly the requested interfaces', () => {
    const events$: Observable<AgentEvent> = of();
    expectTypeOf(events$.pipe(ofEventType('ReasonDelta'))).toEqualTypeOf<Observable<ReasonDeltaEvent>>();
    expectTypeOf(events$.pipe(ofEventType('RunEnd', 'ToolCallEnd'))).toEqualTypeOf<Observable<RunEndEvent | ToolCallEndEvent>>();
    expectTypeOf(events$.pipe(terminalRunEnd())).toEqualTypeOf<Observable<RunEndEvent>>();
    expectTypeOf(events$.pipe(unwrapTaskEvents())).toEqualTypeOf<Observable<UnwrappedEvent>>();
    // @ts-expect-error: not an event type
    ofEventType('Nope');
  });
});
