import { defer, finalize, from, Observable, Subject, throwError, concat } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { BufferOverflowError, toAsyncIterable } from '../../src/adapters/index.js';
import { FixtureRun, multitaskRun } from './fixtures.js';

const run = new FixtureRun('r', 'main');
const someEvents = (n: number): AgentEvent[] => Array.from({ length: n }, (_, i) => run.contextSize(i, i * 10));

function tracked(): { source: Subject<AgentEvent>; events$: Observable<AgentEvent>; state: { tornDown: boolean } } {
  const source = new Subject<AgentEvent>();
  const state = { tornDown: false };
  return { source, events$: source.pipe(finalize(() => (state.tornDown = true))), state };
}

describe('toAsyncIterable', () => {
  it('yields every event in order and then finishes', async () => {
    const { events } = multitaskRun();
    const seen: AgentEvent[] = [];
    for await (const event of toAsyncIterable(from(events))) seen.push(event);
    expect(seen).toEqual(events);
  });

  it('subscribes on the first next(), not before', async () => {
    let subscriptions = 0;
    const iterator = toAsyncIterable(defer(() => { subscriptions += 1; return from(someEvents(1)); }));
    expect(subscriptions).toBe(0);
    expect(await iterator.next()).toEqual({ done: false, value: someEvents(1)[0] });
    expect(subscriptions).toBe(1);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('delivers events that arrive while next() waits, to each waiting caller in turn', async () => {
    const { source, events$ } = tracked();
    const iterator = toAsyncIterable(events$);
    const first = iterator.next();
    const second = iterator.next();
    const [a, b] = someEvents(2) as [AgentEvent, AgentEvent];
    source.next(a);
    source.next(b);
    source.complete();
    expect(await Promise.all([first, second, iterator.next()])).toEqual([
      { done: false, value: a }, { done: false, value: b }, { done: true, value: undefined },
    ]);
  });

  it('unsubscribes the run when the loop breaks', async () => {
    const { source, events$, state } = tracked();
    const iterator = toAsyncIterable(events$);
    const pending = iterator.next();
    for (const e of someEvents(5)) source.next(e);
    await pending;
    let read = 1;
    for await (const _event of iterator) {
      read += 1;
      if (read === 3) break;
    }
    expect(state.tornDown).toBe(true);
    expect(source.observed).toBe(false);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('answers a pending next() with done when return() is called', async () => {
    const { events$, state } = tracked();
    const iterator = toAsyncIterable(events$);
    const pending = iterator.next();
    await iterator.return?.();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(state.tornDown).toBe(true);
  });

  it('holds up to bufferSize unread events', async () => {
    const { source, events$ } = tracked();
    const iterator = toAsyncIterable(events$, { bufferSize: 3 });
    const first = iterator.next();
    const events = someEvents(4);
    for (const e of events) source.next(e);
    source.complete();
    const seen = [(await first).value];
    for await (const event of iterator) seen.push(event);
    expect(seen).toEqual(events);
  });

  it('throws BufferOverflowError and stops the run when more than bufferSize events wait', async () => {
    const { source, events$, state } = tracked();
    const iterator = toAsyncIterable(events$, { bufferSize: 3 });
    const first = iterator.next();
    for (const e of someEvents(5)) source.next(e);
    await first;
    const error: unknown = await iterator.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BufferOverflowError);
    expect((error as BufferOverflowError).name).toBe('BufferOverflowError');
    expect((error as BufferOverflowError).bufferSize).toBe(3);
    expect((error as Error).message).toContain('More than 3 events were waiting to be read');
    expect(state.tornDown).toBe(true);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('overflows on a synchronous source, which keeps emitting until subscribe() returns', async () => {
    let emitted = 0;
    const flood = new Observable<AgentEvent>((subscriber) => {
      for (const e of someEvents(50)) {
        if (subscriber.closed) break;
        emitted += 1;
        subscriber.next(e);
      }
      subscriber.complete();
    });
    const iterator = toAsyncIterable(flood, { bufferSize: 10 });
    await expect(iterator.next()).rejects.toBeInstanceOf(BufferOverflowError);
    expect(emitted).toBe(50); // the flood ran on, and its later events were not buffered
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('rethrows the run’s error after the events before it', async () => {
    const [a, b] = someEvents(2) as [AgentEvent, AgentEvent];
    const iterator = toAsyncIterable(concat(from([a, b]), throwError(() => new Error('model unreachable'))));
    const seen: AgentEvent[] = [];
    await expect((async () => { for await (const event of iterator) seen.push(event); })()).rejects.toThrow('model unreachable');
    expect(seen).toEqual([a, b]);
  });

  it('rejects a bufferSize that is not a positive whole number', () => {
    expect(() => toAsyncIterable(from([]), { bufferSize: 0 })).toThrow('bufferSize must be a whole number of events, at least 1, got 0');
    expect(() => toAsyncIterable(from([]), { bufferSize: 2.5 })).toThrow(RangeError);
  });
});
