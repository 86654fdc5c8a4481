import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { sameShape, shapeable, withText } from '../../src/runs/delta-shape.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';

const delta = (runId: string, text: string, extra: Record<string, unknown> = {}): AgentEvent =>
  ({ type: 'ReasonDelta', runId, agentName: 'w', step: 1, kind: 'text', text, ...extra }) as AgentEvent;
const wrap = (event: AgentEvent, taskId = 't1', extra: Record<string, unknown> = {}): AgentEvent =>
  ({ type: 'TaskWrap', runId: 'r', agentName: 'main', parentRunId: 'r', taskId, taskIndex: 1, taskAgentName: 'w', taskDescription: 'd', multitask: false, event, ...extra }) as AgentEvent;

/** Appends `events` to a fresh log, ends it, and replays it from the start. */
function replay(events: readonly AgentEvent[]): { live: SequencedEvent[]; replayed: SequencedEvent[] } {
  const log = new MemoryEventLog();
  const live: SequencedEvent[] = [];
  events.forEach((event, i) => {
    log.append({ runId: 'r', seq: i + 1, event });
    if (i === 0) log.read('r', 0).subscribe((e) => live.push(e));
  });
  log.end('r', { kind: 'complete' });
  const replayed: SequencedEvent[] = [];
  log.read('r', 0).subscribe((e) => replayed.push(e));
  return { live, replayed };
}

// Deltas that differ from their neighbours in one field at any level, interleaved across streams.
const field = fc.constantFrom('step', 'kind', 'agentName', 'taskDescription', 'taskIndex', 'extra', 'undefinedKey', 'order', 'none');
const deltaEvent = fc
  .record({ stream: fc.nat(3), depth: fc.nat(2), text: fc.string({ maxLength: 6 }), change: field, value: fc.nat(2) })
  .map(({ stream, depth, text, change, value }): AgentEvent => {
    const inner: Record<string, unknown> = {};
    if (change === 'step') inner.step = value;
    if (change === 'kind') inner.kind = value ? 'thinking' : 'text';
    if (change === 'agentName') inner.agentName = `w${value}`;
    if (change === 'undefinedKey') inner.hint = undefined;
    if (change === 'extra' && depth === 0) inner.extra = value;
    let event = delta(`c${stream}`, text, inner);
    // The same fields and values, the keys in another order (what a hand-built or parsed event may have).
    if (change === 'order' && value) event = Object.fromEntries(Object.entries(event).reverse()) as unknown as AgentEvent;
    for (let d = 0; d < depth; d++) {
      const outer: Record<string, unknown> = {};
      if (change === 'taskDescription' && d === 0) outer.taskDescription = `d${value}`;
      if (change === 'taskIndex') outer.taskIndex = value;
      if (change === 'extra' && d === depth - 1) outer.extra = value;
      event = wrap(event, `t${stream}`, outer);
      if (change === 'order' && value === 2 && d === 0) event = Object.fromEntries(Object.entries(event).reverse()) as unknown as AgentEvent;
    }
    return event;
  });
const otherEvent = fc.constant<AgentEvent>({ type: 'ActionEnd', runId: 'r', agentName: 'main', step: 1 });

describe('delta shapes in the memory log', () => {
  it('property: a replay gives back every event equal to the one appended (fields, values, absent and undefined keys), and live readers get the very objects', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(deltaEvent, deltaEvent, otherEvent), { minLength: 1, maxLength: 60 }), (events) => {
        const { live, replayed } = replay(events);
        expect(replayed.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        replayed.forEach((e, i) => expect(e.event).toStrictEqual(events[i]));
        // Equal is not enough for a stream of bytes: a replay writes each event's keys in its own order.
        replayed.forEach((e, i) => expect(JSON.stringify(e.event)).toBe(JSON.stringify(events[i])));
        live.forEach((e, i) => expect(e.event).toBe(events[i]));
      }),
      { numRuns: 500 },
    );
  });

  it('sameShape: equal but for the innermost text; a field only one side has, or a different value at any level, makes them differ', () => {
    expect(sameShape(wrap(delta('c', 'a')), wrap(delta('c', 'b')))).toBe(true);
    expect(sameShape(wrap(delta('c', 'a')), wrap(delta('c', 'a', { step: 2 })))).toBe(false);
    expect(sameShape(wrap(delta('c', 'a')), wrap(delta('c', 'a'), 't2'))).toBe(false);
    expect(sameShape(delta('c', 'a'), delta('c', 'a', { hint: undefined }))).toBe(false);
    expect(sameShape(wrap(delta('c', 'a')), delta('c', 'a'))).toBe(false);
    expect(sameShape(wrap(wrap(delta('c', 'a'))), wrap(wrap(delta('c', 'b'), 't1', { multitask: true })))).toBe(false);
  });

  it('shapeable: only deltas with exactly their declared fields, none undefined, at every level', () => {
    expect(shapeable(wrap(wrap(delta('c', 'a'))))).toBe(true);
    expect(shapeable(delta('c', 'a', { hint: undefined }))).toBe(false);
    expect(shapeable(delta('c', 'a', { step: undefined }))).toBe(false);
    expect(shapeable(wrap(delta('c', 'a'), 't1', { extra: 1 }))).toBe(false);
    expect(shapeable(wrap(delta('c', 'a'), 't1', { taskIndex: undefined }))).toBe(false);
    expect(shapeable(delta('c', 1 as unknown as string))).toBe(false);
    expect(shapeable({ type: 'ActionEnd', runId: 'r', agentName: 'main', step: 1 })).toBe(false);
  });

  it('a delta with its keys in another order is replayed in its own order, not its stream shape\'s', () => {
    const first = wrap(delta('c1', 'Hel'));
    const reordered = Object.fromEntries(Object.entries(wrap(delta('c1', 'lo'))).reverse()) as unknown as AgentEvent;
    const innerReordered = wrap(Object.fromEntries(Object.entries(delta('c1', '!')).reverse()) as unknown as AgentEvent);
    expect(sameShape(first, reordered)).toBe(false);
    expect(sameShape(first, innerReordered)).toBe(false);
    expect(shapeable(reordered)).toBe(false);
    const { replayed } = replay([first, reordered, innerReordered, wrap(delta('c1', '?'))]);
    expect(replayed.map((e) => JSON.stringify(e.event))).toEqual([first, reordered, innerReordered, wrap(delta('c1', '?'))].map((e) => JSON.stringify(e)));
  });

  it('withText rebuilds a copy and leaves the shape as it was', () => {
    const shape = wrap(wrap(delta('c', 'first')));
    const copy = withText(shape, 'second');
    expect(copy).toStrictEqual(wrap(wrap(delta('c', 'second'))));
    expect(shape).toStrictEqual(wrap(wrap(delta('c', 'first'))));
  });

  it('10,000 deltas of 4 interleaved streams replay in order with their own texts', () => {
    const events = Array.from({ length: 10_000 }, (_, i) => wrap(delta(`c${i % 4}`, `tok${i}`), `t${i % 4}`));
    const { replayed } = replay(events);
    expect(replayed).toHaveLength(10_000);
    expect(replayed[9_999]!.event).toStrictEqual(events[9_999]);
    expect(replayed.every((e, i) => JSON.stringify(e.event) === JSON.stringify(events[i]))).toBe(true);
  });
});
