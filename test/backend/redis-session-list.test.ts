/**
 * RedisSessionStore.list() on a real redis-server: conversations only (task sessions left
 * out), titled by their first prompt (a compaction does not change it), most recently written
 * first, gone once deleted or expired.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const user = (content: string) => ({ role: 'user' as const, content });
const assistant = (content: string) => ({ role: 'assistant' as const, content });

describe.skipIf(!HAS_REDIS)('RedisSessionStore.list()', () => {
  const redisFile = redisBackendPerFile('listing', 60_000);
  afterEach(() => vi.useRealTimers());

  it('names conversations by their first prompt, most recently written first, without task sessions or expired ones', async () => {
    const store = redisFile.backend.sessions;
    // The writes are ordered on a clock the test sets (a real pause could tie on a coarse clock).
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    await store.append('older', [user('First   question\nover two lines'), assistant('a')]);
    vi.setSystemTime(start + 1_000);
    await store.saveTaskInfo!({ taskId: 'task_1', agentName: 'explore', description: 'd', ownerSessionId: 'older' });
    await store.append('task_1', [user('a task prompt')]);
    await store.append('newer', [user('Second conversation')]);
    await store.append('gone', [user('expires')]);
    vi.setSystemTime(start + 2_000);
    await store.replace!('older', [user('Summary of the earlier turns'), assistant('a')]);
    await redisFile.backend.parts.redis.del(redisFile.backend.parts.keys.session('gone')); // as its TTL would
    const list = await store.list!();
    expect(list.map((s) => [s.sessionId, s.title])).toEqual([['older', 'First question over two lines'], ['newer', 'Second conversation']]);
    expect(list[0]!.lastActivityAt).toBeGreaterThan(list[1]!.lastActivityAt);
    expect(await redisFile.backend.parts.redis.zscore(redisFile.backend.parts.keys.sessionIndex(), 'gone')).toBeNull(); // pruned
    await store.delete!('older');
    expect((await store.list!()).map((s) => s.sessionId)).toEqual(['newer']);
  });

  it('keeps its index bounded like the sessions: it expires with the newest one, and what is not a session id is skipped', async () => {
    const { redis, keys } = redisFile.backend.parts;
    await redisFile.backend.sessions.append('bounded', [user('hello')]);
    const ttl = await redis.pttl(keys.sessionIndex());
    expect(ttl).toBeGreaterThan(0); // never a key without an expiry
    expect(ttl).toBeLessThanOrEqual(await redis.pttl(keys.session('bounded')) + 1_000);
    // a hostile or stale member: a lone surrogate and an id far older than the retention
    await redis.zadd(keys.sessionIndex(), Date.now(), '\uD800bad');
    await redis.zadd(keys.sessionIndex(), 1, 'ancient');
    await redis.rpush(keys.session('ancient'), JSON.stringify(user('old')));
    await redisFile.backend.sessions.append('bounded', [assistant('hi')]); // a write prunes what expired
    expect(await redis.zscore(keys.sessionIndex(), 'ancient')).toBeNull();
    expect((await redisFile.backend.sessions.list!()).map((s) => s.sessionId)).not.toContain('\uD800bad');
  });
});

describe.skipIf(!HAS_REDIS)('RedisSessionStore.list() with a clock set back', () => {
  const redisFile = redisBackendPerFile('listing-clock', 60_000);
  afterEach(() => vi.useRealTimers());

  it('never moves a session back in the index: a page after it neither repeats it nor skips the others', async () => {
    const store = redisFile.backend.sessions;
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + 5_000);
    await store.append('older', [user('older')]);
    vi.setSystemTime(start + 10_000);
    await store.append('newer', [user('newer')]);
    const first = await store.list!({ limit: 1 });
    expect(first.map((s) => s.sessionId)).toEqual(['newer']);
    vi.setSystemTime(start); // another instance's clock, behind: it writes "newer" again
    await store.append('newer', [assistant('again')]);
    const next = await store.list!({ limit: 10, after: first[0] });
    expect(next.map((s) => s.sessionId)).toEqual(['older']);
    expect(Number(await redisFile.backend.parts.redis.zscore(redisFile.backend.parts.keys.sessionIndex(), 'newer'))).toBe(start + 10_000);
  });
});
