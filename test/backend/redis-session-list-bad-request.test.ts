/**
 * RedisSessionStore.list with a request that is none answers as the memory and file stores
 * do: a RangeError naming the field. `limit: -1` was an empty page (read as the end of the
 * list), `limit: 1.5` and a NaN time a raw Lua error (review finding).
 */
import { describe, expect, it } from 'vitest';
import type { SessionListRequest } from '../../src/session/session-store.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

describe.skipIf(!HAS_REDIS)('RedisSessionStore.list() with a request that is none', () => {
  const file = redisBackendPerFile('listbadrequest', 60_000);

  it('refuses a bad limit or cursor naming the field, and still answers a good one', async () => {
    const { sessions } = file.backend;
    await sessions.append('s1', [{ role: 'user', content: 'first' }]);
    const bad: [SessionListRequest, RegExp][] = [
      [{ limit: -1 }, /^list: limit must be an integer >= 0, got -1$/],
      [{ limit: 1.5 }, /^list: limit must be an integer >= 0, got 1\.5$/],
      [{ after: { lastActivityAt: Number.NaN, sessionId: 's1' } }, /^list: after\.lastActivityAt must be a finite number .*got NaN$/],
      [{ after: { lastActivityAt: Date.now(), sessionId: 7 as unknown as string } }, /^list: after\.sessionId must be a string .*got 7$/],
    ];
    for (const [request, message] of bad) {
      const answer = await sessions.list!(request).then((page) => page, (e: unknown) => e);
      expect(answer, JSON.stringify(request)).toBeInstanceOf(RangeError);
      expect((answer as Error).message).toMatch(message);
    }
    expect(await sessions.list!({ limit: 5 })).toEqual([expect.objectContaining({ sessionId: 's1', title: 'first' })]);
  });
});
