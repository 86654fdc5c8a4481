import { describe, expect, it } from 'vitest';
import { frameBatch } from '../../src/adapters/sse-frame-batch.js';

describe('frameBatch (the frames of one turn in one write)', () => {
  it('writes the frames added in one turn once, in order, before a microtask queued after them', async () => {
    const seen: string[] = [];
    const batch = frameBatch((text) => seen.push(`write ${text}`));
    batch.add('a');
    batch.add('b');
    queueMicrotask(() => seen.push('later microtask'));
    batch.add('c');
    expect(seen).toEqual([]); // nothing goes out synchronously
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual(['write abc', 'later microtask']);
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
