import pLimit from 'p-limit';
import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { inSlot$ } from '../../src/model/in-slot.js';

/** A job that emits at once when subscribed and records whether it was stopped. */
function eagerJob(log: string[]): Observable<number> {
  return new Observable<number>((out) => {
    log.push('started');
    out.next(1);
    out.next(2);
    return () => log.push('stopped');
  });
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('inSlot$', () => {
  it('stops a job whose subscriber leaves on a value the job emits while being subscribed', async () => {
    const limit = pLimit(1);
    const log: string[] = [];
    const seen: number[] = [];
    const subscription = inSlot$(limit, eagerJob(log)).subscribe((value) => {
      seen.push(value);
      subscription.unsubscribe();
    });
    await tick();
    expect(seen).toEqual([1]);
    expect(log).toEqual(['started', 'stopped']); // before the fix: started, never stopped
    // ...and the slot is free again: the next job starts.
    const next: number[] = [];
    inSlot$(limit, eagerJob([])).subscribe((value) => next.push(value));
    await tick();
    expect(next).toEqual([1, 2]);
  });

  it('keeps a job running while its subscriber stays, and frees the slot when it completes', async () => {
    const limit = pLimit(1);
    const log: string[] = [];
    const seen: number[] = [];
    const job = new Observable<number>((out) => {
      log.push('started');
      out.next(1);
      out.complete();
      return () => log.push('stopped');
    });
    inSlot$(limit, job).subscribe((value) => seen.push(value));
    await tick();
    expect(seen).toEqual([1]);
    expect(limit.activeCount).toBe(0);
  });
});
