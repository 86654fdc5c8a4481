import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';

const info = (taskId: string) => ({ taskId, agentName: 'explore', description: 'd', ownerSessionId: 'main' });
const hi = [{ role: 'user' as const, content: 'hi' }];

describe('MemorySessionStore', () => {
  it('keeps at most maxTaskSessions task sessions, dropping the least recently used', () => {
    const store = new MemorySessionStore({ maxTaskSessions: 2 });
    for (const id of ['t1', 't2']) {
      store.saveTaskInfo(info(id));
      store.append(id, hi);
    }
    store.load('t1'); // t1 is now more recent than t2
    store.saveTaskInfo(info('t3'));
    store.append('t3', hi);
    expect(store.loadTaskInfo('t2')).toBeUndefined();
    expect(store.load('t2')).toEqual([]);
    expect(store.loadTaskInfo('t1')).toEqual(info('t1'));
    expect(store.load('t1')).toEqual(hi);
    expect(store.loadTaskInfo('t3')).toEqual(info('t3'));
  });

  it('never drops the main agent’s conversations', () => {
    const store = new MemorySessionStore({ maxTaskSessions: 0 });
    store.append('conversation', hi);
    store.saveTaskInfo(info('t1'));
    expect(store.load('conversation')).toEqual(hi);
    expect(store.loadTaskInfo('t1')).toBeUndefined();
  });

  it('returns copies, so a caller cannot change a stored session', () => {
    const store = new MemorySessionStore();
    store.append('s', hi);
    (store.load('s') as unknown as unknown[]).push('junk');
    expect(store.load('s')).toEqual(hi);
  });

  it('rejects a bound that is not a whole number', () => {
    expect(() => new MemorySessionStore({ maxTaskSessions: -1 })).toThrow('maxTaskSessions must be an integer >= 0, got -1');
  });
});

describe('MemorySessionStore bounded by bytes', () => {
  it('a flood of 4,000 sessions with 1 MB prompts stays within maxBytes, dropping the least recently used', () => {
    const store = new MemorySessionStore({ maxBytes: 16 * 1024 * 1024 });
    const prompt = 'x'.repeat(1024 * 1024);
    store.append('kept', [{ role: 'user', content: 'small and recent' }]);
    for (let i = 0; i < 4_000; i++) {
      store.append(`s${i}`, [{ role: 'user', content: prompt }]);
      if (i % 3 === 0) store.load('kept'); // used now and then: never the least recent
      expect(store.heldBytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    }
    expect(store.size).toBeLessThan(10);
    expect(store.load('kept')).toHaveLength(1);
    expect(store.load('s3999')).toHaveLength(1);
    expect(store.load('s0')).toEqual([]);
  });

  it('keeps the session being written even when it alone is over the bound, and counts a compaction\'s archive', () => {
    const store = new MemorySessionStore({ maxBytes: 1000 });
    store.append('other', [{ role: 'user', content: 'hi' }]);
    store.append('big', [{ role: 'user', content: 'y'.repeat(2000) }]);
    expect(store.load('big')).toHaveLength(1);
    expect(store.load('other')).toEqual([]);
    store.replace('big', [{ role: 'user', content: 'summary' }]);
    expect(store.loadArchive('big')).toHaveLength(1);
    expect(store.heldBytes).toBeGreaterThan(4000);
    store.delete('big');
    expect(store.heldBytes).toBe(0);
  });
});
