import { lastValueFrom, map, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ofEventType } from '../../src/events/operators/of-event-type.js';
import { terminalRunEnd } from '../../src/events/operators/terminal-run-end.js';
import { unwrapEvent, unwrapTaskEvents, type TaskFrame } from '../../src/events/operators/unwrap-task-events.js';
import { runEnd, SAMPLE_EVENTS, wrap } from '../support/event-fixtures.js';
import { createTestScheduler } from '../support/virtual-time.js';

const start: AgentEvent = { type: 'RunStart', runId: 'main-run', agentName: 'main', sessionId: 's', prompt: 'go' };
const childDelta: AgentEvent = { type: 'ReasonDelta', runId: 'child-run', agentName: 'explore', step: 1, kind: 'text', text: 'hi' };
const childEnd = runEnd('child-run', 'explore');
const grandchildEnd = runEnd('grandchild-run', 'review');
const parentEnd = runEnd('main-run', 'main', 'the parent answer');

/** child-run is task t1 of main-run; grandchild-run is task t2 of child-run. */
const EVENTS: Record<string, AgentEvent> = {
  s: start,
  d: wrap(childDelta, { parentRunId: 'main-run', taskId: 't1' }),
  g: wrap(wrap(grandchildEnd, { parentRunId: 'child-run', taskId: 't2', taskIndex: 2 }), {
    parentRunId: 'main-run',
    taskId: 't1',
    runId: 'child-run',
    agentName: 'explore',
  }),
  c: wrap(childEnd, { parentRunId: 'main-run', taskId: 't1' }),
  e: parentEnd,
};

describe('terminalRunEnd()', () => {
  it('picks the parent\'s unwrapped RunEnd even when wrapped child RunEnds come first, and completes with it', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('s-d-g-c--e--|', EVENTS);
      expectObservable(source.pipe(terminalRunEnd())).toBe('---------(e|)', EVENTS);
      expectSubscriptions(source.subscriptions).toBe('^--------!');
    });
  });

  it('lets an error through when the run ends without a RunEnd (an abort)', () => {
    const abort = Object.assign(new Error('The run was aborted'), { name: 'AbortError' });
    createTestScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('s-c-#', EVENTS, abort).pipe(terminalRunEnd())).toBe('----#', undefined, abort);
    });
  });

  it('resolves lastValueFrom with the parent\'s RunEnd', async () => {
    expect(await lastValueFrom(of(...Object.values(EVENTS)).pipe(terminalRunEnd()))).toBe(parentEnd);
  });
});

describe('unwrapEvent() / unwrapTaskEvents()', () => {
  const frame = (runId: string, agentName: string, parentRunId: string, taskId: string, taskIndex: number): TaskFrame => ({
    runId,
    agentName,
    parentRunId,
    taskId,
    taskIndex,
    taskAgentName: agentName,
    taskDescription: `task ${taskId}`,
    multitask: taskIndex > 1,
  });

  it('gives the streamed run\'s own events an empty path', () => {
    for (const event of SAMPLE_EVENTS) expect(unwrapEvent(event)).toEqual({ event, path: [] });
  });

  it('takes off one wrapper, and two, listing the frames outermost first', () => {
    expect(unwrapEvent(EVENTS['c']!)).toEqual({ event: childEnd, path: [frame('child-run', 'explore', 'main-run', 't1', 1)] });
    const { event, path } = unwrapEvent(EVENTS['g']!);
    expect(event).toBe(grandchildEnd);
    expect(path).toEqual([frame('child-run', 'explore', 'main-run', 't1', 1), frame('grandchild-run', 'review', 'child-run', 't2', 2)]);
    // The innermost frame names the task that produced the event.
    expect(path.at(-1)).toMatchObject({ parentRunId: 'child-run', taskId: 't2' });
    expect(path.every((f) => !('event' in f) && !('type' in f))).toBe(true);
  });

  it('maps a stream event by event, keeping timing and order', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const unwrapped = Object.fromEntries(Object.entries(EVENTS).map(([k, v]) => [k, unwrapEvent(v)]));
      expectObservable(cold('s-d-g-c-e|', EVENTS).pipe(unwrapTaskEvents())).toBe('s-d-g-c-e|', unwrapped);
    });
  });
});

describe('ofEventType()', () => {
  it('keeps the unwrapped events of the given types, leaving children\'s events in their wrappers', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const source = cold('s-d-g-c-e|', EVENTS);
      expectObservable(source.pipe(ofEventType('RunEnd'))).toBe('--------e|', EVENTS);
      expectObservable(source.pipe(ofEventType('RunStart', 'RunEnd'))).toBe('s-------e|', EVENTS);
      expectObservable(source.pipe(ofEventType('ReasonDelta'))).toBe('---------|');
      expectObservable(source.pipe(ofEventType('TaskWrap'))).toBe('--d-g-c--|', EVENTS);
    });
  });

  it('sees children\'s events after unwrapping', async () => {
    const types = await lastValueFrom(
      of(...Object.values(EVENTS)).pipe(
        unwrapTaskEvents(),
        map((u) => u.event),
        ofEventType('ReasonDelta', 'RunEnd'),
        map((e) => `${e.type}:${e.runId}`),
        toArray(),
      ),
    );
    expect(types).toEqual(['ReasonDelta:child-run', 'RunEnd:grandchild-run', 'RunEnd:child-run', 'RunEnd:main-run']);
  });
});
