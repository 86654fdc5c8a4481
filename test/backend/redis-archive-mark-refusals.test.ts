/**
 * How the Redis session store refuses what it cannot have written around a compaction. An
 * archive mark (`<prefix>:archived:<id>`) of another type than a string read as no mark in
 * `loadArchive`, while a compaction failed on it with a bare `WRONGTYPE`: now both refuse it
 * as they refuse a mark that is no count, with the same words. The compaction's refusal
 * reached the user as "Redis failed while compacting a session: ...", and quoted the key
 * whole (a planted id may be megabytes long) where `loadArchive` shortened it: now it is the
 * same message, the key shown by `shownKey`. A real failure of Redis keeps its prefix; a
 * messages or archive key of another type fails `loadArchive` as it fails `load` and the
 * compaction, instead of being read as empty.
 */
import { describe, expect, it } from 'vitest';
import { shownKey } from '../../src/backend/bad-data-warning.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const FOUR: ChatMessage[] = [
  { role: 'user', content: 'q1' },
  { role: 'assistant', content: 'a1' },
  { role: 'user', content: 'q2' },
  { role: 'assistant', content: 'a2' },
];
const SUMMARY: ChatMessage = { role: 'user', content: 'summary' };

/** What a rejected promise was rejected with. */
const rejection = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  throw new Error('it was not refused');
};

describe.skipIf(!HAS_REDIS)('a Redis session the store refuses to compact or read', () => {
  const redisFile = redisBackendPerFile('markrefusals', 60_000);

  /** Everything of the session a compaction writes: its messages, archive, mark (its type), summary, place in the index. */
  const records = async (id: string): Promise<unknown[]> => {
    const { redis, keys } = redisFile.backend.parts;
    return Promise.all([redis.lrange(keys.session(id), 0, -1), redis.lrange(keys.archive(id), 0, -1), redis.type(keys.archived(id)), redis.hgetall(keys.sessionSummary(id)), redis.zscore(keys.sessionIndex(), id)]);
  };

  const plant: readonly [string, (key: string) => Promise<unknown>][] = [
    ['list', (key) => redisFile.backend.parts.redis.rpush(key, '1')],
    ['hash', (key) => redisFile.backend.parts.redis.hset(key, 'n', '1')],
    ['set', (key) => redisFile.backend.parts.redis.sadd(key, '1')],
    ['zset', (key) => redisFile.backend.parts.redis.zadd(key, 1, '1')],
    ['stream', (key) => redisFile.backend.parts.redis.xadd(key, '*', 'n', '1')],
  ];
  for (const [type, write] of plant) {
    it(`refuses an archive mark that is a ${type}, in a compaction and in loadArchive alike, and changes nothing`, async () => {
      const { redis, keys } = redisFile.backend.parts;
      const store = redisFile.backend.sessions;
      const id = `typed_${type}`;
      const key = keys.archived(id);
      await store.append(id, FOUR);
      await write(key);
      const before = await records(id);
      const refusal =
        `the archive mark ${key} holds a ${type}, which is no count of the messages its archive holds (a whole number in digits alone, from 0 to the 4 messages of the session): ` +
        `it was changed, or written by something else with access to the store, and nothing of the session was changed. Delete the key (redis-cli DEL ${key}): then none of the session's messages counts as archived, so none is lost`;

      const read = await rejection(store.loadArchive(id));
      const compaction = await rejection(store.replace(id, [SUMMARY]));
      expect(read.name).toBe('RedisBackendError');
      expect(read.message.slice(0, refusal.length)).toBe(refusal);
      expect(compaction).toMatchObject({ name: 'RedisBackendError', message: read.message });
      expect(await records(id)).toEqual(before);

      // What the message advises loses nothing.
      await redis.del(key);
      expect(await store.loadArchive(id)).toEqual(FOUR);
      await store.replace(id, [SUMMARY]);
      expect(await store.loadArchive(id)).toEqual(FOUR);
    });
  }

  it('words a refused compaction as loadArchive does, unprefixed, the key shortened and marked as shownKey shows it', async () => {
    const { redis, keys } = redisFile.backend.parts;
    const store = redisFile.backend.sessions;
    // Past the 200 characters a message quotes, with an invisible character inside them and a control character past them.
    const id = `long_\u200b${'x'.repeat(300)}\u0007`;
    const key = keys.archived(id);
    await store.append(id, FOUR);
    await redis.set(key, '-2');

    const read = await rejection(store.loadArchive(id));
    const compaction = await rejection(store.replace(id, [SUMMARY]));
    expect(compaction.message).toBe(read.message);
    expect(compaction.message.startsWith(`the archive mark ${shownKey(key)} holds "-2", `)).toBe(true);
    expect(compaction.message).toContain(`(redis-cli DEL ${shownKey(key)})`);
    expect(shownKey(key)).toMatch(/<U\+200B>x+…$/);
    expect(compaction.message).not.toContain(key.slice(0, 150));
    expect(await store.load(id)).toEqual(FOUR);
  });

  it("hands a script's refusal of a write on unprefixed, and a failure of Redis with its prefix", async () => {
    const { redis, keys } = redisFile.backend.parts;
    const store = redisFile.backend.sessions;
    await redis.set(keys.deletedTask('task_gone'), '1');
    const refused = await rejection(store.append('task_gone', FOUR));
    expect(refused).toMatchObject({ name: 'RedisBackendError', message: 'the session "task_gone" is a task of a deleted conversation: nothing more is written to it' });

    // The messages key of another type: Redis itself fails the compaction's LLEN.
    await redis.hset(keys.session('hashed'), 'n', '1');
    const failed = await rejection(store.replace('hashed', [SUMMARY]));
    expect(failed.message).toMatch(/^Redis failed while compacting a session: WRONGTYPE /);
  });

  it('fails loadArchive on a messages or archive key of another type, as load and the compaction fail, instead of reading it as empty', async () => {
    const { redis, keys } = redisFile.backend.parts;
    const store = redisFile.backend.sessions;
    await store.append('archive_hash', FOUR);
    await store.replace('archive_hash', [SUMMARY]);
    await redis.del(keys.archive('archive_hash'));
    await redis.hset(keys.archive('archive_hash'), 'n', '1');
    // Messages past the mark: the compaction has some to push to the archive.
    await store.append('archive_hash', FOUR);
    await expect(store.loadArchive('archive_hash')).rejects.toThrow(/^Redis failed while loading an archive: WRONGTYPE /);
    await expect(store.replace('archive_hash', [SUMMARY])).rejects.toThrow(/^Redis failed while compacting a session: WRONGTYPE /);

    await redis.sadd(keys.session('session_set'), 'x');
    await expect(store.loadArchive('session_set')).rejects.toThrow(/^Redis failed while loading an archive: WRONGTYPE /);
    await expect(store.load('session_set')).rejects.toThrow(/^Redis failed while loading a session: WRONGTYPE /);
  });
});
