import { setImmediate as realSetImmediate } from 'node:timers';
import { describe, expect, it, vi } from 'vitest';
import { frameBatch } from '../../src/adapters/sse-frame-batch.js';

describe('frameBatch (the frames of one turn in one write)', () => {
  it('writes the frames added in one turn once, in order, at the end of the turn (after its microtasks)', async () => {
    const seen: string[] = [];
    const batch = frameBatch((text) => seen.push(`write ${text}`));
    batch.add('a');
    batch.add('b');
    queueMicrotask(() => seen.push('microtask'));
    batch.add('c');
    expect(seen).toEqual([]); // nothing goes out synchronously
    await new Promise((done) => setImmediate(done));
    expect(seen).toEqual(['microtask', 'write abc']);
  });

  it('writes every batch of a turn at its end, each once, in the order they were first added to', async () => {
    const writes: string[] = [];
    const first = frameBatch((text) => writes.push(`first ${text}`));
    const second = frameBatch((text) => writes.push(`second ${text}`));
    second.add('1');
    first.add('2');
    second.add('3');
    first.add('4');
    await new Promise((done) => setImmediate(done));
    expect(writes).toEqual(['second 13', 'first 24']);
  });

  it('writes the batches that waited 5 ms or more before the next frame added anywhere, in a turn that lasts', async () => {
    const writes: string[] = [];
    const waiting = frameBatch((text) => writes.push(`waiting ${text}`));
    const other = frameBatch((text) => writes.push(`other ${text}`));
    waiting.add('a');
    other.add('b');
    const start = performance.now();
    while (performance.now() - start < 6) {
      // a long turn: sockets read one after another
    }
    expect(writes).toEqual([]);
    waiting.add('c');
    // the frames that waited went out before the new one; the new one waits for the turn's end
    expect(writes).toEqual(['waiting a', 'other b']);
    await new Promise((done) => setImmediate(done));
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
    await new Promise((done) => setImmediate(done));
    batch.add('2');
    await new Promise((done) => setImmediate(done));
    expect(writes).toEqual(['1', '2']);
  });

  it('does not write a batch taken before its flush', async () => {
    const writes: string[] = [];
    const batch = frameBatch((text) => writes.push(text));
    batch.add('x');
    expect(batch.take()).toBe('x');
    await new Promise((done) => setImmediate(done));
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
    await new Promise((done) => setImmediate(done));
    expect(writes).toEqual(['abcd', 'e']);
  });

  it('reports a failing later write as an uncaught exception, as queueMicrotask does', async () => {
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
      const batch = frameBatch(() => {
        throw new Error('socket gone later');
      });
      batch.add('x');
      await new Promise((done) => setImmediate(done));
      await new Promise((done) => setImmediate(done));
    } finally {
      process.off('uncaughtException', onUncaught);
      process.off('unhandledRejection', onRejection);
      for (const listener of vitestListeners) process.on('uncaughtException', listener);
    }
    expect(uncaught.map((e) => (e as Error).message)).toEqual(['socket gone later']);
    expect(unhandled).toEqual([]);
  });
});
