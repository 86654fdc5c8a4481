/**
 * The Redis session store over an archive mark (`<prefix>:archived:<id>`) it did not write.
 * Read as a number, a planted mark hid messages: `1000` or one past the session's length made
 * the next compaction archive none of them and replace them all (an archive of `[]`, the
 * compaction reported as done), `-2` kept only the last two, `0x1` lost the first; and
 * `loadArchive` left the same messages out of the transcript. Each is now refused, by the
 * compaction and by `loadArchive`, naming the key and what to do, and nothing is changed.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const user = (n: number): ChatMessage => ({ role: 'user', content: `q${n}` });
const answer = (n: number): ChatMessage => ({ role: 'assistant', content: `a${n}` });
const FOUR = [user(1), answer(1), user(2), answer(2)];
const SUMMARY: ChatMessage = { role: 'user', content: 'summary' };

describe.skipIf(!HAS_REDIS)('a Redis session with an archive mark the store did not write', () => {
  const redisFile = redisBackendPerFile('archivemark', 60_000);

  /** Everything of the session a compaction writes: its messages, archive, mark, summary, place in the index. */
  const records = async (id: string): Promise<unknown[]> => {
    const { redis, keys } = redisFile.backend.parts;
    return Promise.all([redis.lrange(keys.session(id), 0, -1), redis.lrange(keys.archive(id), 0, -1), redis.get(keys.archived(id)), redis.hgetall(keys.sessionSummary(id)), redis.zscore(keys.sessionIndex(), id)]);
  };

  // The last: one past the session's four messages.
  const hostile: readonly [string, string][] = [['1000', '"1000"'], ['-2', '"-2"'], ['0x1', '"0x1"'], ['', '""'], [' 1', '" 1"'], ['1e2', '"1e2"'], ['5', '"5"'], ['1\u001b[2J', 'a longer value, or one of other characters']];
  for (const [mark, shown] of hostile) {
    it(`refuses the mark ${JSON.stringify(mark)} in a compaction and in loadArchive, naming the key, and changes nothing`, async () => {
      const { redis, keys } = redisFile.backend.parts;
      const store = redisFile.backend.sessions;
      const id = `s${JSON.stringify(mark)}`;
      await store.append(id, FOUR);
      await redis.set(keys.archived(id), mark);
      const before = await records(id);
      const key = keys.archived(id);
      const refusal = `the archive mark ${key} holds ${shown}, which is no count of the messages its archive holds (a whole number in digits alone, from 0 to the 4 messages of the session)`;
      const advice = `Delete the key (redis-cli DEL ${key}): then none of the session's messages counts as archived, so none is lost`;

      await expect(store.loadArchive(id)).rejects.toThrow(refusal);
      await expect(store.loadArchive(id)).rejects.toThrow(advice);
      const replaced = store.replace(id, [SUMMARY]);
      await expect(replaced).rejects.toThrow(refusal);
      await expect(replaced).rejects.toMatchObject({ name: 'RedisBackendError', message: expect.stringContaining(advice) as unknown });
      expect(await records(id)).toEqual(before);
      expect(await store.load(id)).toEqual(FOUR);

      // What the message advises loses nothing: every message is in the transcript, and the compaction archives them all.
      await redis.del(key);
      expect(await store.loadArchive(id)).toEqual(FOUR);
      await store.replace(id, [SUMMARY]);
      expect(await store.loadArchive(id)).toEqual(FOUR);
    });
  }

  it('takes a mark the store writes: none, 0, up to the length of the session, and its own after a compaction', async () => {
    const { redis, keys } = redisFile.backend.parts;
    const store = redisFile.backend.sessions;
    for (const [mark, shown] of [['0', FOUR], ['2', [...FOUR.slice(2)]], ['4', []]] as const) {
      const id = `valid${mark}`;
      await store.append(id, FOUR);
      await redis.set(keys.archived(id), mark);
      expect(await store.loadArchive(id)).toEqual(shown);
      await store.replace(id, [SUMMARY]);
      // The archive accounts for the summary (the mark, 1): the transcript is what was archived.
      expect(await store.loadArchive(id)).toEqual(shown);
      expect(await redis.get(keys.archived(id))).toBe('1');
    }
    // Two compactions with the store's own marks, the second past messages appended since.
    await store.append('own', FOUR);
    await store.replace('own', [SUMMARY, answer(2)]);
    await store.append('own', [user(3), answer(3)]);
    await store.replace('own', [SUMMARY]);
    expect(await store.loadArchive('own')).toEqual([...FOUR, user(3), answer(3)]);
  });
});
