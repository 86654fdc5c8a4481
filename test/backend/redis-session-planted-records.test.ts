/**
 * The Redis session store over records it did not write, as an attacker would plant them.
 * A task record planted under a conversation's id used to hide that conversation from
 * `list()`, which also took it out of the index: the delete of the record's "owner" then took
 * it for a task and deleted it. And a key of another type met by the transaction of a delete
 * (a task's event log, the index) was passed over without a word.
 */
import { describe, expect, it } from 'vitest';
import { RedisSessionStore } from '../../src/backend/redis-session-store.js';
import { plantTaskRecord, warningsDelivered } from './planted-data.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { conversationWithTask, plantedScenesPerTest } from './support/planted-scene.js';

describe.skipIf(!HAS_REDIS)('Redis sessions over planted records', () => {
  const redisFile = redisBackendPerFile('plantedrecords', 60_000);
  const scene = plantedScenesPerTest(redisFile);

  it('a task record planted under a conversation hides it from nothing: listed, and not deleted with the planted owner', async () => {
    const { redis, keys, store, warnings } = scene();
    await store.append('victim', [{ role: 'user', content: 'my own conversation' }]);
    await store.append('attacker', [{ role: 'user', content: 'hi' }]);
    // Both halves of a task record, as saveTaskInfo would write them for a task "victim" of "attacker".
    await plantTaskRecord(redis, keys, 'victim', 'attacker');

    // Twice: the first listing used to take it out of the index as well.
    expect((await store.list()).map((s) => s.sessionId).sort()).toEqual(['attacker', 'victim']);
    expect((await store.list()).map((s) => [s.sessionId, s.title])).toContainEqual(['victim', 'my own conversation']);
    await store.delete('attacker');
    expect(await store.load('victim')).toEqual([{ role: 'user', content: 'my own conversation' }]);
    expect((await store.list()).map((s) => s.sessionId)).toEqual(['victim']);
    expect(await redis.exists(keys.deletedTask('victim'))).toBe(0);
    await warningsDelivered();
    expect(warnings.messages.join('\n')).toContain(`Redis key ${keys.taskInfo('victim')}, the task record of "victim", is set, but the index lists it as a conversation`);
  });

  it('an entry an earlier version indexed (no summary) is left out only when its task record is a consistent one', async () => {
    const { redis, keys } = redisFile.backend.parts;
    const store = redisFile.backend.sessions;
    const indexedByOldVersion = async (id: string, prompt: string): Promise<void> => {
      await redis.rpush(keys.session(id), JSON.stringify({ role: 'user', content: prompt }));
      await redis.zadd(keys.sessionIndex(), Date.now(), id);
    };
    await store.saveTaskInfo({ taskId: 'old_task', agentName: 'alpha', description: 't', ownerSessionId: 'old_conv' });
    await indexedByOldVersion('old_task', 'a task prompt');
    await indexedByOldVersion('old_conv', 'a conversation');
    // Not a record of a task "old_conv2": it names another task.
    await redis.set(keys.taskInfo('old_conv2'), JSON.stringify({ taskId: 'someone_else', agentName: 'alpha', description: 'x', ownerSessionId: 'old_conv' }));
    await indexedByOldVersion('old_conv2', 'another conversation');

    const listed = (await store.list()).map((s) => s.sessionId);
    expect(listed).toEqual(expect.arrayContaining(['old_conv', 'old_conv2']));
    expect(listed).not.toContain('old_task');
    expect(await redis.zscore(keys.sessionIndex(), 'old_task')).toBeNull();
    await store.delete('old_conv');
    await store.delete('old_conv2');
  });

  it('a task log of another type planted under a deleted task: the delete completes, with a warning naming it, and leaves it', async () => {
    const { redis, keys, store, warnings } = scene();
    await conversationWithTask(store, 'conv_l', 'task_l', 'l');
    await redis.sadd(keys.taskLogs('task_l'), 'task_l.1');
    await redis.set(keys.log('task_l.1'), 'not a stream');

    await store.delete('conv_l');
    expect(await store.load('conv_l')).toEqual([]);
    expect(await store.load('task_l')).toEqual([]);
    expect(await redis.exists(keys.deletedTask('task_l'))).toBe(1);
    expect(await redis.get(keys.log('task_l.1'))).toBe('not a stream');
    await warningsDelivered();
    expect(warnings.messages.join('\n')).toMatch(new RegExp(`Redis key ${keys.log('task_l.1')} is of another type .*XTRIM refused it: WRONGTYPE.*conversation "conv_l", whose delete left it as it is and went on`));
  });

  it('an index of another type: the delete completes, with a warning, and the next write rebuilds the index', async () => {
    const { backend, redis, keys, warnings } = scene();
    await backend.sessions.append('conv_i', [{ role: 'user', content: 'hi' }]);
    await redis.del(keys.sessionIndex());
    await redis.set(keys.sessionIndex(), 'planted');

    await backend.sessions.delete('conv_i');
    expect(await backend.sessions.load('conv_i')).toEqual([]);
    await warningsDelivered();
    expect(warnings.messages.join('\n')).toContain(`Redis key ${keys.sessionIndex()} is of another type than a session store writes there (ZREM refused it`);
    await backend.sessions.append('conv_j', [{ role: 'user', content: 'next' }]);
    expect((await backend.sessions.list()).map((s) => s.sessionId)).toEqual(['conv_j']);
    await backend.sessions.delete('conv_j');
  });

  it('a command of the transaction Redis refuses otherwise: the delete fails, naming the command and its key', async () => {
    const { backend } = redisFile;
    const { redis, keys } = backend.parts;
    await backend.sessions.append('conv_x', [{ role: 'user', content: 'hi' }]);
    await backend.sessions.saveTaskInfo({ taskId: 'task_x', agentName: 'alpha', description: 'x', ownerSessionId: 'conv_x' });
    // A stand-in for any refusal that is no type error: Redis refuses `SET ... PX 0` when it runs it.
    const refused = new RedisSessionStore(redis, keys, 0);
    await expect(refused.delete('conv_x')).rejects.toMatchObject({
      name: 'RedisBackendError',
      message: expect.stringContaining(`Redis failed while deleting a session: Redis refused SET ${keys.deletedTask('task_x')} (ERR invalid expire time`),
    });
    // The marks go first, on their own: refused, they left the task to the retry the message asks for.
    expect(await backend.sessions.loadTaskInfo('task_x')).toMatchObject({ ownerSessionId: 'conv_x' });
    await backend.sessions.delete('conv_x');
    expect(await backend.sessions.loadTaskInfo('task_x')).toBeUndefined();
    expect(await redis.exists(keys.deletedTask('task_x'))).toBe(1);
  });
});
