import { defer, finalize, NEVER, of, take, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { withFirst$ } from '../../src/agent/with-first.js';
import { outcomeOf } from '../support/collect.js';
import { createTestScheduler } from '../support/virtual-time.js';

describe('withFirst$', () => {
  it('emits the value, then the source in order, and ends as the source ends', async () => {
    expect(await outcomeOf(withFirst$(0, of(1, 2)))).toMatchObject({ values: [0, 1, 2], completed: true });
    const failed = await outcomeOf(withFirst$(0, throwError(() => new Error('source failed'))));
    expect(failed.values).toEqual([0]);
    expect((failed.error as Error).message).toBe('source failed');
  });

  it('a consumer that stops on the first value never starts the source', () => {
    let subscribed = 0;
    const counted$ = defer(() => (subscribed++, of(1)));
    const seen: number[] = [];
    withFirst$(0, counted$).pipe(take(1)).subscribe((v) => seen.push(v));
    expect(seen).toEqual([0]);
    expect(subscribed).toBe(0);
    withFirst$(0, counted$).subscribe((v) => seen.push(v));
    expect(seen).toEqual([0, 0, 1]);
    expect(subscribed).toBe(1);
  });

  it('unsubscribing tears the running source down', () => {
    let tornDown = 0;
    const subscription = withFirst$(0, NEVER.pipe(finalize(() => tornDown++))).subscribe();
    expect(tornDown).toBe(0);
    subscription.unsubscribe();
    expect(tornDown).toBe(1);
  });

  it('keeps the source\'s schedule in virtual time; the first value takes none', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      expectObservable(withFirst$('s', cold('--a-b|'))).toBe('s-a-b|');
    });
  });
});
