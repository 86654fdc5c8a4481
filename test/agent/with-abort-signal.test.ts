import { getEventListeners } from 'node:events';
import { defer, finalize, interval, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors/abort-error.js';
import { withAbortSignal } from '../../src/agent/with-abort-signal.js';
import { outcomeOf } from '../support/collect.js';
import { createTestScheduler, timeline } from '../support/virtual-time.js';

const label = (n: number): string => String(n);

describe('withAbortSignal', () => {
  it('passes values and completion through untouched without a signal, or while it is not aborted', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('-a-b-|');
      expectObservable(source.pipe(withAbortSignal(undefined))).toBe('-a-b-|');
      expectObservable(source.pipe(withAbortSignal(new AbortController().signal))).toBe('-a-b-|');
    });
  });

  it('on abort: unsubscribes the source and errors with AbortError carrying the reason (virtual time)', () => {
    const scheduler = createTestScheduler();
    const controller = new AbortController();
    let log: string[] = [];
    let sourceFinalizedAt = -1;
    scheduler.run(() => {
      const source = interval(10).pipe(finalize(() => (sourceFinalizedAt = scheduler.now())));
      log = timeline(scheduler, source.pipe(withAbortSignal(controller.signal)), label);
      scheduler.schedule(() => controller.abort('enough'), 25);
    });
    expect(log).toEqual(['10 0', '20 1', '25 # AbortError: The run was aborted']);
    expect(sourceFinalizedAt).toBe(25);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('puts an Error reason into the message and keeps it as the cause', async () => {
    const controller = new AbortController();
    const reason = new Error('timeout of the whole job');
    const pending = outcomeOf(interval(1000).pipe(withAbortSignal(controller.signal)));
    controller.abort(reason);
    const { error } = await pending;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).message).toBe('The run was aborted: timeout of the whole job');
    expect((error as AbortError).cause).toBe(reason);
  });

  it('fails at once, without subscribing to the source, when the signal is already aborted', async () => {
    let subscribed = false;
    const source = defer(() => {
      subscribed = true;
      return of(1);
    });
    const { error, values } = await outcomeOf(source.pipe(withAbortSignal(AbortSignal.abort())));
    expect((error as Error).name).toBe('AbortError');
    expect(values).toEqual([]);
    expect(subscribed).toBe(false);
  });

  it('stops a source whose subscription itself aborts the signal', async () => {
    const controller = new AbortController();
    let stopped = false;
    const source = defer(() => {
      controller.abort();
      return interval(5).pipe(finalize(() => (stopped = true)));
    });
    const { error } = await outcomeOf(source.pipe(withAbortSignal(controller.signal)));
    expect((error as Error).name).toBe('AbortError');
    expect(stopped).toBe(true);
  });

  it('removes its listener when the consumer unsubscribes, and then never errors', () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const subscription = interval(1000)
      .pipe(withAbortSignal(controller.signal))
      .subscribe({ error: () => seen.push('error') });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    subscription.unsubscribe();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    controller.abort();
    expect(seen).toEqual([]);
  });
});
