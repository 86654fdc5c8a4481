/**
 * Deleting a conversation from the Redis session store deletes the tasks it started (their
 * messages and task info), so a new conversation taking the id cannot resume them
 * (docs/sessions.md, "Deleting a conversation"); another conversation's tasks stay, and an
 * id put in the conversation's task set by hand is no task of it.
 */
import { describe, expect, it } from 'vitest';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

describe.skipIf(!HAS_REDIS)('RedisSessionStore.delete and the tasks of a conversation', () => {
  const redisFile = redisBackendPerFile('sessiondeletetasks', 60_000);

  it("deletes the conversation's task sessions and task info, and nothing of another conversation", async () => {
    const { backend } = redisFile;
    const store = backend.sessions;
    await store.append('conv', [{ role: 'user', content: 'hi' }]);
    await store.append('other', [{ role: 'user', content: 'mine' }]);
    await store.saveTaskInfo({ taskId: 'task_a', agentName: 'alpha', description: 'a', ownerSessionId: 'conv' });
    await store.append('task_a', [{ role: 'user', content: 'secret' }]);
    await store.saveTaskInfo({ taskId: 'task_b', agentName: 'alpha', description: 'b', ownerSessionId: 'other' });
    await store.append('task_b', [{ role: 'user', content: 'kept' }]);
    // Written by hand: "other" listed as a task of conv.
    await backend.parts.redis.sadd(backend.parts.keys.sessionTasks('conv'), 'other');

    await store.delete('conv');
    expect(await store.load('task_a')).toEqual([]);
    expect(await store.loadTaskInfo('task_a')).toBeUndefined();
    expect(await store.load('other')).toEqual([{ role: 'user', content: 'mine' }]);
    expect(await store.load('task_b')).toEqual([{ role: 'user', content: 'kept' }]);
    expect(await store.loadTaskInfo('task_b')).toMatchObject({ ownerSessionId: 'other' });
  });
});
