import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const user = (n: number): ChatMessage => ({ role: 'user', content: `q${n}` });
const answer = (n: number): ChatMessage => ({ role: 'assistant', content: `a${n}` });

describe.skipIf(!HAS_REDIS)('the Redis session store compacts a session', () => {
  const redisFile = redisBackendPerFile('compaction', 60_000);

  it('replaces the messages and keeps every one ever appended in the archive, in order, over two compactions', async () => {
    const store = redisFile.backend.sessions;
    await store.append('s', [user(1), answer(1), user(2), answer(2)]);
    expect(await store.loadArchive!('s')).toEqual([user(1), answer(1), user(2), answer(2)]);
    const summary: ChatMessage = { role: 'user', content: 'summary of 1, then q2' };
    await store.replace!('s', [summary, answer(2)]);
    await store.append('s', [user(3), answer(3)]);
    expect(await store.load('s')).toEqual([summary, answer(2), user(3), answer(3)]);
    expect(await store.loadArchive!('s')).toEqual([user(1), answer(1), user(2), answer(2), user(3), answer(3)]);
    await store.replace!('s', [{ role: 'user', content: 'summary of all, then q3' }, answer(3)]);
    expect(await store.loadArchive!('s')).toEqual([user(1), answer(1), user(2), answer(2), user(3), answer(3)]);
    // Kept as long as the session, and forgotten with it.
    expect(await redisFile.backend.parts.redis.pttl(redisFile.backend.parts.keys.archive('s'))).toBeGreaterThan(50_000);
    await store.delete!('s');
    expect(await store.loadArchive!('s')).toEqual([]);
  });
});
