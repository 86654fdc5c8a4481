/**
 * A conversation's note of its background results dropped unread (`<prefix>:dropped:<session>`,
 * dropped-note-store.ts) was left by its delete to the engine's forget, which takes only a note
 * its engine had loaded: any other lived on for its TTL (a week), and a new conversation of the
 * id was told of results it never had. The delete now deletes it with the conversation's keys,
 * and every engine's copy of it reads it back (gone); another conversation keeps its own.
 */
import { describe, expect, it } from 'vitest';
import { putBackDroppedNote } from '../../src/backend/dropped-note-store.js';
import { SharedResults } from '../../src/backend/shared-results.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)("a conversation's delete and its note of dropped results", () => {
  const file = redisBackendPerFile('deletedroppednote', 60_000);

  it('the delete removes the note no engine loaded, and leaves another conversation its own', async () => {
    const { sessions, parts } = file.backend;
    const { redis, keys } = parts;
    for (const id of ['conv_a', 'conv_b']) {
      await sessions.append(id, [{ role: 'user', content: 'hi' }]);
      // Written straight to Redis (what a worker's put over the bound does): no engine's copy holds it.
      await putBackDroppedNote(redis, keys, id, { count: 2, taskIds: [`${id}_task`] }, 'test');
    }
    await sessions.delete('conv_a');
    expect(await redis.exists(keys.droppedResults('conv_a'))).toBe(0);
    expect(JSON.parse((await redis.get(keys.droppedResults('conv_b')))!)).toEqual({ count: 2, taskIds: ['conv_b_task'] });
  });

  it("every engine's copy of the note is gone with it, so a new conversation of the id is told nothing", async () => {
    const { sessions, parts } = file.backend;
    const { redis, keys, hub } = parts;
    await sessions.append('conv_c', [{ role: 'user', content: 'hi' }]);
    await sessions.append('conv_d', [{ role: 'user', content: 'hi' }]);
    await putBackDroppedNote(redis, keys, 'conv_c', { count: 1, taskIds: ['conv_c_task'] }, 'test');
    await putBackDroppedNote(redis, keys, 'conv_d', { count: 1, taskIds: ['conv_d_task'] }, 'test');
    // An engine that loaded both notes, and was not the one deleting (no forget of its own).
    const { results, stop } = await SharedResults.create(redis, keys, hub);
    try {
      await sessions.delete('conv_c');
      await caughtUp(file.backend);
      expect(results.takeDropped('conv_c')).toBeUndefined();
      expect(results.takeDropped('conv_d')).toEqual({ count: 1, taskIds: ['conv_d_task'] });
    } finally {
      stop();
    }
  });
});
