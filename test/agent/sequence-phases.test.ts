import { defer, Observable, of, Subject, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { afterResult, Next, type Phase, sequencePhases$ } from '../../src/agent/sequence-phases.js';

/**
 * The run loop's sequencing, by hand since issue 28 (it was `expand` on the queue scheduler):
 * attacked where ordering or teardown could break. Each part here logs its start and its
 * teardown, and the log is the assertion.
 */

type Mode = 'sync' | 'async';

/** A chain of `n` parts, each emitting two values; part `i` is sync or async as `modeOf(i)` says. */
function chain(n: number, modeOf: (i: number) => Mode, log: string[], triggers: Subject<void>[]): Phase<string> {
  const part = (i: number): Phase<string> => () =>
    new Observable<string | Next<string>>((sub) => {
      log.push(`start ${i}`);
      const finish = (): void => {
        sub.next(`${i}b`);
        if (i + 1 < n) sub.next(new Next(part(i + 1)));
        sub.complete();
      };
      sub.next(`${i}a`);
      if (modeOf(i) === 'sync') finish();
      else {
        const trigger = new Subject<void>();
        triggers.push(trigger);
        trigger.subscribe(finish);
      }
      return () => log.push(`down ${i}`);
    });
  return part(0);
}

/** Fires the async parts' triggers, one at a time, until none waits. */
function drive(triggers: Subject<void>[]): void {
  for (let t = triggers.shift(); t; t = triggers.shift()) t.next();
}

describe('sequencePhases$', () => {
  it('10,000 synchronous parts run in order, synchronously, without growing the stack', () => {
    const values: string[] = [];
    const log: string[] = [];
    let completed = false;
    sequencePhases$(chain(10_000, () => 'sync', log, [])).subscribe({ next: (v) => values.push(v), complete: () => (completed = true) });
    expect(completed).toBe(true);
    expect(values).toHaveLength(20_000);
    expect(values.slice(0, 4)).toEqual(['0a', '0b', '1a', '1b']);
    expect(values.at(-1)).toBe('9999b');
  });

  it('starts each part only after the one before was torn down, mixing synchronous and asynchronous parts', () => {
    for (const pattern of [(i: number) => (i % 2 ? 'async' : 'sync'), (i: number) => (i % 3 ? 'sync' : 'async'), () => 'async' as const] as ((i: number) => Mode)[]) {
      const log: string[] = [];
      const triggers: Subject<void>[] = [];
      let completed = 0;
      sequencePhases$(chain(30, pattern, log, triggers)).subscribe({ complete: () => completed++ });
      drive(triggers);
      expect(completed).toBe(1);
      expect(log).toEqual(Array.from({ length: 30 }, (_, i) => [`start ${i}`, `down ${i}`]).flat());
    }
  });

  it('unsubscribed after any value: nothing more is emitted, the running part is torn down, no other starts', () => {
    const n = 12;
    const pattern = (i: number): Mode => (i % 3 === 1 ? 'async' : 'sync');
    for (let cut = 1; cut <= 2 * n; cut++) {
      const log: string[] = [];
      const triggers: Subject<void>[] = [];
      const values: string[] = [];
      let ends = 0;
      // `take` unsubscribes the sequence the moment the cut's value is out, even while it is
      // still being subscribed (as the registry's and a parent's subscribers do).
      sequencePhases$(chain(n, pattern, log, triggers))
        .pipe(take(cut))
        .subscribe({ next: (v) => values.push(v), complete: () => ends++, error: () => ends++ });
      drive(triggers);
      expect(values, `cut at ${cut}`).toHaveLength(cut);
      expect(ends).toBe(1); // take's own completion, nothing from the sequence after it
      // Every part that started was torn down, and none started after the cut's part.
      const starts = log.filter((l) => l.startsWith('start')).map((l) => l.slice(6));
      const downs = log.filter((l) => l.startsWith('down')).map((l) => l.slice(5));
      expect(downs).toEqual(starts);
      expect(starts.at(-1)).toBe(String(Math.floor((cut - 1) / 2)));
    }
  });

  it('a failing part ends the sequence with the recovered value, once, and starts nothing more', () => {
    const values: string[] = [];
    let completed = 0;
    let laterStarted = false;
    const later: Phase<string> = () => defer(() => ((laterStarted = true), of('never')));
    const failing: Phase<string> = () => new Observable((sub) => {
      sub.next('before');
      sub.error(new Error('boom'));
      sub.next(new Next(later)); // ignored: the part is over
    });
    sequencePhases$(() => of('first', new Next(failing)), (e) => `recovered: ${(e as Error).message}`).subscribe({ next: (v) => values.push(v), complete: () => completed++ });
    expect(values).toEqual(['first', 'before', 'recovered: boom']);
    expect(completed).toBe(1);
    expect(laterStarted).toBe(false);
  });

  it('a part that throws while being made, without recover, errors the stream', () => {
    let error: unknown;
    sequencePhases$<string>(() => {
      throw new Error('no part');
    }).subscribe({ error: (e: unknown) => (error = e) });
    expect(error).toEqual(new Error('no part'));
  });
});

describe('afterResult', () => {
  it('continues with the last value once the part is torn down, and its continuation is stopped by unsubscribing', () => {
    const log: string[] = [];
    const part = new Subject<number>();
    const then = new Subject<string>();
    const values: string[] = [];
    const subscription = new Observable<number>((sub) => {
      const s = part.subscribe(sub);
      return () => (log.push('part down'), s.unsubscribe());
    })
      .pipe(afterResult((n) => (log.push(`then ${n}`), new Observable<string>((sub) => (then.subscribe(sub), () => log.push('then down'))))))
      .subscribe((v) => values.push(v));
    part.next(1);
    part.next(2);
    expect(log).toEqual([]);
    part.complete();
    expect(log).toEqual(['part down', 'then 2']);
    then.next('saved');
    subscription.unsubscribe();
    expect(log).toEqual(['part down', 'then 2', 'then down']);
    then.next('late');
    expect(values).toEqual(['saved']);
  });

  it('a part that ends without a result errors, and one stopped before its end never continues', () => {
    let error: unknown;
    of<number>().pipe(afterResult(() => of('x'))).subscribe({ error: (e: unknown) => (error = e) });
    expect(error).toEqual(new Error('a part of the run ended without its result'));
    let continued = false;
    const part = new Subject<number>();
    const subscription = part.pipe(afterResult(() => ((continued = true), of('x')))).subscribe();
    part.next(1);
    subscription.unsubscribe();
    part.complete();
    expect(continued).toBe(false);
    expect(part.observed).toBe(false);
  });
});
