import { setImmediate as realSetImmediate } from 'node:timers';
import { describe, expect, it, vi } from 'vitest';
import { frameBatch, type FrameBatch } from '../../src/adapters/sse-frame-batch.js';

/** Resolves after this turn's end, where the batches write (theirs was scheduled first). */
const nextTurn = (): Promise<void> => new Promise((done) => setImmediate(done));

/** A batch whose writes go to `writes`, each marked with `name`. */
const named = (writes: string[], name: string): FrameBatch => frameBatch((text) => writes.push(`${name} ${text}`));

/** Blocks the event loop for `ms`: a long turn, sockets read one after another. */
function spin(ms: number): void {
  const start = performance.now();
  while (performance.now() - start < ms) {
    // busy
  }
}

/** Runs `body` with the process's uncaught exceptions and unhandled rejections caught, and returns them. */
async function capturingUncaught(body: () => Promise<void>): Promise<{ uncaught: unknown[]; unhandled: unknown[] }> {
  // vitest's own listeners would fail the run: ours take the process's errors alone meanwhile
  const vitestListeners = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  const uncaught: unknown[] = [];
  const unhandled: unknown[] = [];
  const onUncaught = (error: unknown): void => void uncaught.push(error);
  const onRejection = (reason: unknown): void => void unhandled.push(reason);
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onRejection);
  try {
    await body();
  } finally {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onRejection);
    for (const listener of vitestListeners) process.on('uncaughtException', listener);
  }
  return { uncaught, unhandled };
}

describe('frameBatch (the frames of one turn in one write)', () => {
  it('writes the frames added in one turn once, in order, at the end of the turn (after its microtasks)', async () => {
    const seen: string[] = [];
    const batch = frameBatch((text) => seen.push(`write ${text}`));
    batch.add('a');
    batch.add('b');
    queueMicrotask(() => seen.push('microtask'));
    batch.add('c');
    expect(seen).toEqual([]); // nothing goes out synchronously
    await nextTurn();
    expect(seen).toEqual(['microtask', 'write abc']);
  });

  it('writes every batch of a turn at its end, each once, in the order they were first added to', async () => {
    const writes: string[] = [];
    const first = named(writes, 'first');
    const second = named(writes, 'second');
    second.add('1');
    first.add('2');
    second.add('3');
    first.add('4');
    await nextTurn();
    expect(writes).toEqual(['second 13', 'first 24']);
  });

  it('writes the batches that waited 5 ms or more before the next frame added anywhere, in a turn that lasts', async () => {
    const writes: string[] = [];
    const waiting = named(writes, 'waiting');
    const other = named(writes, 'other');
    waiting.add('a');
    other.add('b');
    spin(6);
    expect(writes).toEqual([]);
    waiting.add('c');
    // the frames that waited went out before the new one; the new one waits for the turn's end
    expect(writes).toEqual(['waiting a', 'other b']);
    await nextTurn();
    expect(writes).toEqual(['waiting a', 'other b', 'waiting c']);
  });

  it('writes at the end of the turn under fake timers too: a test in virtual time is not held back', async () => {
    vi.useFakeTimers();
    try {
      const writes: string[] = [];
      const batch = frameBatch((text) => writes.push(text));
      batch.add('x');
      // the global setImmediate is the fake one now: wait on the real one
      await new Promise((done) => realSetImmediate(done));
      expect(writes).toEqual(['x']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes what the next turn adds in a write of its own', async () => {
    const writes: string[] = [];
    const batch = frameBatch((text) => writes.push(text));
    batch.add('1');
    await nextTurn();
    batch.add('2');
    await nextTurn();
    expect(writes).toEqual(['1', '2']);
  });

  it('does not write a batch taken before its flush', async () => {
    const writes: string[] = [];
    const batch = frameBatch((text) => writes.push(text));
    batch.add('x');
    expect(batch.take()).toBe('x');
    await nextTurn();
    expect(writes).toEqual([]);
  });

  it('writes at once when the batch is full, and throws a failing write of the full batch to its caller', () => {
    const writes: string[] = [];
    const batch = frameBatch((text) => writes.push(text), 4);
    batch.add('ab');
    batch.add('cd');
    expect(writes).toEqual(['abcd']);
    const failing = frameBatch(() => {
      throw new Error('socket gone');
    }, 1);
    expect(() => failing.add('x')).toThrow('socket gone');
  });

  it('writes only what came after a full batch at the end of the turn, not the full batch again', async () => {
    const writes: string[] = [];
    const batch = frameBatch((text) => writes.push(text), 4);
    batch.add('ab');
    batch.add('cd');
    batch.add('e');
    await nextTurn();
    expect(writes).toEqual(['abcd', 'e']);
  });

  it('reports a failing later write as an uncaught exception, as queueMicrotask does', async () => {
    const { uncaught, unhandled } = await capturingUncaught(async () => {
      const batch = frameBatch(() => {
        throw new Error('socket gone later');
      });
      batch.add('x');
      await nextTurn();
      await nextTurn();
    });
    expect(uncaught.map((e) => (e as Error).message)).toEqual(['socket gone later']);
    expect(unhandled).toEqual([]);
  });

  it('never throws one response’s failing write into another’s add, when that add writes the waiting ones', async () => {
    const writes: string[] = [];
    let thrown: unknown;
    const { uncaught } = await capturingUncaught(async () => {
      const broken = frameBatch(() => {
        throw new Error('socket gone while waiting');
      });
      const after = named(writes, 'after');
      const healthy = named(writes, 'healthy');
      broken.add('x');
      after.add('y');
      spin(6);
      try {
        healthy.add('z'); // writes the overdue ones first: the broken one among them
      } catch (error) {
        thrown = error;
      }
      await nextTurn();
      await nextTurn();
    });
    expect(thrown).toBeUndefined();
    // the response after the broken one was still written, and the new frame after it
    expect(writes).toEqual(['after y', 'healthy z']);
    expect(uncaught.map((e) => (e as Error).message)).toEqual(['socket gone while waiting']);
  });

  it('writes 10,000 responses waiting in one long turn: each gets its frames once, in order, by the turn’s end', async () => {
    const writes = new Map<number, string[]>();
    const batches = Array.from({ length: 10_000 }, (_, i) => frameBatch((text) => writes.set(i, [...(writes.get(i) ?? []), text])));
    // a turn this long passes the 5 ms cap: the waiting ones go out in rounds meanwhile
    batches.forEach((batch, i) => batch.add(`a${i};`));
    batches.forEach((batch, i) => batch.add(`b${i};`));
    await nextTurn();
    for (let i = 0; i < batches.length; i++) {
      const pieces = writes.get(i) ?? [];
      expect(pieces.join('')).toBe(`a${i};b${i};`);
      expect(pieces.every((piece) => piece !== '')).toBe(true);
    }
  });
});
