/**
 * `writeNdjson` to an output that stops draining (a pipe nobody reads, a stalled socket):
 * the lines waiting for `'drain'` are bounded, and past the bound the run is stopped.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { PassThrough, Writable } from 'node:stream';
import { finalize, from, lastValueFrom, Observable, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { BufferOverflowError, parseNdjson, writeNdjson } from '../../src/adapters/index.js';
import { FixtureRun } from './fixtures.js';

/** A run emitting `count` deltas, one per turn of the event loop, then never ending. */
function endlessDeltas(count: number) {
  const state = { emitted: 0, tornDown: false };
  const main = new FixtureRun('r', 'main');
  const events$ = new Observable<AgentEvent>((subscriber) => {
    const tick = (): void => {
      if (subscriber.closed || state.emitted >= count) return;
      state.emitted += 1;
      subscriber.next(main.reason(1, `delta ${state.emitted}`)[1]!);
      setImmediate(tick);
    };
    tick();
  }).pipe(finalize(() => (state.tornDown = true)));
  return { events$, state };
}

/** Settles with what `promise` did within `ms`, or `'still pending'`. */
async function within(promise: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([promise.then(() => 'resolved', (e: unknown) => e), delay(ms).then(() => 'still pending')]);
}

describe('writeNdjson: an output that stops draining', () => {
  it('stops the run with BufferOverflowError once more than bufferSize lines wait', async () => {
    const stuck = new Writable({ highWaterMark: 1, write() {} }); // never calls back: never drains
    const { events$, state } = endlessDeltas(5000);
    const outcome = await within(writeNdjson(events$, stuck, { bufferSize: 100 }), 5000);
    expect(outcome).toBeInstanceOf(BufferOverflowError);
    expect((outcome as BufferOverflowError).bufferSize).toBe(100);
    expect(state.tornDown).toBe(true);
    // one line went to the writable, 100 waited, the 102nd overflowed
    expect(state.emitted).toBe(102);
  });

  it('is bounded by default too (10,000 lines)', async () => {
    const stuck = new Writable({ highWaterMark: 1, write() {} });
    const { events$, state } = endlessDeltas(50_000);
    const outcome = await within(writeNdjson(events$, stuck), 10_000);
    expect(outcome).toBeInstanceOf(BufferOverflowError);
    expect(state.emitted).toBe(10_002);
  });

  it('writes every line, in order, to an output that drains slowly but within the bound', async () => {
    const main = new FixtureRun('r', 'main');
    const events = Array.from({ length: 500 }, (_, i) => main.reason(1, `delta ${i}`)[1]!);
    const out = new PassThrough({ highWaterMark: 64 });
    const chunks: Buffer[] = [];
    const reading = (async () => {
      await delay(100); // nothing is read for a while: lines wait
      for await (const chunk of out) chunks.push(chunk as Buffer);
    })();
    await writeNdjson(from(events), out, { end: true, bufferSize: 1000 });
    await reading;
    expect(await lastValueFrom(from(chunks).pipe(parseNdjson(), toArray()))).toEqual(events);
  });

  it('refuses a bound it cannot honour', async () => {
    await expect(writeNdjson(from([]), new PassThrough(), { bufferSize: 0 })).rejects.toThrow(
      'bufferSize must be a whole number of lines, at least 1, got 0',
    );
  });
});
