/**
 * A Redis session write either happens whole or writes nothing, whatever it finds in Redis,
 * and a read of a list tolerates a bad item. A string planted at `<prefix>:sessions` (the
 * index) used to fail an append after its messages were pushed (so a retry stored them
 * twice), and make every conversation on the prefix unwritable; one item of an archive that
 * was not JSON made `loadArchive` throw a bare `SyntaxError`, where `load` hands it over.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { plantedScenesPerTest } from './support/planted-scene.js';

const user = (n: number): ChatMessage => ({ role: 'user', content: `q${n}` });
const answer = (n: number): ChatMessage => ({ role: 'assistant', content: `a${n}` });

describe.skipIf(!HAS_REDIS)('Redis session writes over what they should not find', () => {
  const redisFile = redisBackendPerFile('badkeys', 60_000);
  const scene = plantedScenesPerTest(redisFile);

  it('an index of another type is replaced, with a warning: the append is stored once and the conversation listed', async () => {
    const { redis, keys, store, warnings } = scene();
    await redis.set(keys.sessionIndex(), 'planted');
    await store.append('conv', [user(1)]);
    expect(await store.load('conv')).toEqual([user(1)]);
    expect(await redis.type(keys.sessionIndex())).toBe('zset');
    expect((await store.list()).map((s) => s.sessionId)).toEqual(['conv']);
    expect(warnings.messages).toEqual([expect.stringContaining(`Redis key ${keys.sessionIndex()} was a string`)]);
    // A compaction over a planted index too.
    await redis.set(keys.sessionIndex(), 'planted again');
    await store.replace('conv', [{ role: 'user', content: 'summary' }]);
    expect(await store.load('conv')).toEqual([{ role: 'user', content: 'summary' }]);
    expect((await store.list()).map((s) => s.sessionId)).toEqual(['conv']);
  });

  it('a write that fails writes nothing: messages of another type leave the index and summary untouched', async () => {
    const { redis, keys, store } = scene();
    await redis.set(keys.session('held'), 'not a list');
    await expect(store.append('held', [user(1)])).rejects.toThrow(/saving a session/);
    expect(await redis.zscore(keys.sessionIndex(), 'held')).toBeNull();
    expect(await redis.exists(keys.sessionSummary('held'))).toBe(0);
    expect(await redis.get(keys.session('held'))).toBe('not a list');
  });

  it('loadArchive hands an item that is not JSON over as its text, as load does, instead of throwing', async () => {
    const { redis, keys, store } = scene();
    await store.append('arc', [user(1), answer(1)]);
    await store.replace('arc', [{ role: 'user', content: 'summary' }]);
    await redis.lpush(keys.archive('arc'), 'not json{');
    await redis.rpush(keys.session('arc'), 'nor this');
    expect(await store.load('arc')).toEqual([{ role: 'user', content: 'summary' }, 'nor this']);
    expect(await store.loadArchive('arc')).toEqual(['not json{', user(1), answer(1), 'nor this']);
  });
});
