import { concatMap, finalize, map, NEVER, of, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { maybe$, maybeThen$ } from '../../src/agent/maybe.js';
import { outcomeOf } from '../support/collect.js';
import { createTestScheduler } from '../support/virtual-time.js';

describe('maybe$', () => {
  it('emits a plain value synchronously, then completes', () => {
    const seen: string[] = [];
    maybe$(() => 7).subscribe({ next: (v) => seen.push(`next ${v}`), complete: () => seen.push('complete') });
    expect(seen).toEqual(['next 7', 'complete']);
  });

  it('calls the function once per subscription, not before', () => {
    let calls = 0;
    const value$ = maybe$(() => ++calls);
    expect(calls).toBe(0);
    value$.subscribe();
    value$.subscribe();
    expect(calls).toBe(2);
  });

  it('emits a promise\'s value when it settles, not before', async () => {
    const seen: number[] = [];
    const done = outcomeOf(maybe$(() => Promise.resolve(3)).pipe(map((v) => (seen.push(v), v))));
    expect(seen).toEqual([]);
    expect((await done).values).toEqual([3]);
  });

  it('turns a throw and a rejection into an error', async () => {
    const thrown = await outcomeOf(
      maybe$(() => {
        throw new Error('sync boom');
      }),
    );
    expect((thrown.error as Error).message).toBe('sync boom');
    const rejected = await outcomeOf(maybe$(() => Promise.reject(new Error('async boom'))));
    expect((rejected.error as Error).message).toBe('async boom');
  });

  it('runs in virtual time alongside scheduled work (a synchronous value takes no time)', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(maybe$(() => 'now')).toBe('(n|)', { n: 'now' });
      expectObservable(cold('--a--b|').pipe(concatMap((x) => maybe$(() => x.toUpperCase())))).toBe('--A--B|');
    });
  });
});

describe('maybeThen$', () => {
  it('continues with the stream made of a plain value synchronously, in its place', () => {
    const seen: string[] = [];
    maybeThen$(() => 2, (n) => of(n, n * 10)).subscribe({ next: (v) => seen.push(`next ${v}`), complete: () => seen.push('complete') });
    expect(seen).toEqual(['next 2', 'next 20', 'complete']);
  });

  it('continues once a promise settles, and the continuation ends the stream as it ends', async () => {
    let made = 0;
    const done = outcomeOf(maybeThen$(() => Promise.resolve('a'), (v) => (made++, of(v.toUpperCase()))));
    expect(made).toBe(0);
    expect(await done).toMatchObject({ values: ['A'], completed: true });
    expect(made).toBe(1);
  });

  it('errors when the function throws or rejects, when the continuation throws, and as the continuation errors', async () => {
    const cases = [
      maybeThen$(() => {
        throw new Error('fn threw');
      }, () => of(1)),
      maybeThen$(() => Promise.reject(new Error('fn rejected')), () => of(1)),
      maybeThen$(() => 1, () => {
        throw new Error('project threw');
      }),
      maybeThen$(() => Promise.resolve(1), () => throwError(() => new Error('continuation failed'))),
    ];
    const messages = await Promise.all(cases.map(async (case$) => ((await outcomeOf(case$)).error as Error).message));
    expect(messages).toEqual(['fn threw', 'fn rejected', 'project threw', 'continuation failed']);
  });

  it('unsubscribed before its promise settles: makes and subscribes no continuation', async () => {
    let made = 0;
    let settle!: (v: number) => void;
    const subscription = maybeThen$(() => new Promise<number>((resolve) => (settle = resolve)), () => (made++, of(1))).subscribe();
    subscription.unsubscribe();
    settle(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(made).toBe(0);
  });

  it('unsubscribing tears the running continuation down', () => {
    let tornDown = 0;
    const subscription = maybeThen$(() => 1, () => NEVER.pipe(finalize(() => tornDown++))).subscribe();
    expect(tornDown).toBe(0);
    subscription.unsubscribe();
    expect(tornDown).toBe(1);
  });

  it('runs in virtual time: a synchronous value takes no time, the continuation keeps its schedule', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(maybeThen$(() => 'x', (x) => cold('-a|', { a: x }))).toBe('-a|', { a: 'x' });
      expectObservable(cold('--a--b|').pipe(concatMap((x) => maybeThen$(() => x, (v) => of(v).pipe(map((s) => s.toUpperCase())))))).toBe('--A--B|');
    });
  });
});
