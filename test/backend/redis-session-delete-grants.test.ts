/**
 * `RedisSessionStore.delete` as an attacker would test it. Its "always" grants go before
 * anything else: a task record of another type planted in a conversation's task set used to
 * fail the delete before its grants were deleted (the transaction deleting them came after
 * the reads), and a Redis that refuses a read (an ACL) did the same, so a later conversation
 * of the id ran what the deleted one had allowed "always". And a record listed among a
 * conversation's tasks deletes nothing but a task of it: not one naming another owner, not
 * one naming it as the owner of a conversation the index lists.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisSessionStore } from '../../src/backend/redis-session-store.js';
import { plantTaskRecord } from './planted-data.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { conversationWithTask, plantedScenesPerTest } from './support/planted-scene.js';

const grant = { toolName: 'bash', subject: 'rm -rf build' };

describe.skipIf(!HAS_REDIS)('RedisSessionStore.delete: grants first, and only its own tasks', () => {
  const redisFile = redisBackendPerFile('sessiondeletegrants', 60_000);
  const scene = plantedScenesPerTest(redisFile);

  it('deletes the grants, also of a conversation that has nothing else stored', async () => {
    const store = redisFile.backend.sessions;
    await store.append('talk', [{ role: 'user', content: 'hi' }]);
    await store.saveGrant('talk', grant);
    await store.saveGrant('only_grants', grant);
    await store.saveGrant('kept', grant);
    await store.delete('talk');
    await store.delete('only_grants');
    expect(await store.loadGrants('talk')).toEqual([]);
    expect(await store.loadGrants('only_grants')).toEqual([]);
    expect(await store.loadGrants('kept')).toEqual([grant]);
  });

  it('a task record of another type planted in the task set: the delete completes, grants gone, the planted key left', async () => {
    const { redis, keys, store, warnings } = scene();
    await conversationWithTask(store, 'conv_h', 'task_h', 'h');
    await store.saveGrant('conv_h', grant);
    await redis.hset(keys.taskInfo('planted_h'), 'ownerSessionId', 'conv_h');
    await redis.sadd(keys.sessionTasks('conv_h'), 'planted_h');

    await store.delete('conv_h');
    expect(await store.loadGrants('conv_h')).toEqual([]);
    expect(await store.load('conv_h')).toEqual([]);
    expect(await store.load('task_h')).toEqual([]); // its real task still goes
    expect(await redis.type(keys.taskInfo('planted_h'))).toBe('hash');
    expect(warnings.messages.join('\n')).toContain(`Redis key ${keys.taskInfo('planted_h')}, listed among the tasks of conversation "conv_h", is not a string`);
  });

  it('Redis refusing a read the delete makes (an ACL): the delete fails, saying so, and the grants are gone all the same', async () => {
    const { backend, redis: server } = redisFile;
    const { redis, keys } = backend.parts;
    await backend.sessions.append('conv_acl', [{ role: 'user', content: 'hi' }]);
    await backend.sessions.saveGrant('conv_acl', grant);
    await redis.call('ACL', 'SETUSER', 'nosets', 'on', '>pw', '~*', '&*', '+@all', '-smembers');
    const limited = new Redis({ port: server.port, host: '127.0.0.1', username: 'nosets', password: 'pw', maxRetriesPerRequest: 0 });
    try {
      const store = new RedisSessionStore(limited, keys, 60_000);
      await expect(store.delete('conv_acl')).rejects.toMatchObject({ name: 'RedisBackendError', message: expect.stringMatching(/deleting a session.*NOPERM/s) });
      expect(await backend.sessions.loadGrants('conv_acl')).toEqual([]);
      // What the failed delete did not reach is still there, for a retry once Redis allows it.
      expect(await backend.sessions.load('conv_acl')).toEqual([{ role: 'user', content: 'hi' }]);
    } finally {
      limited.disconnect();
      await redis.call('ACL', 'DELUSER', 'nosets');
    }
  });

  it('a record naming another owner, listed in the set: that session is not deleted', async () => {
    const { redis, keys, store, warnings } = scene();
    await store.append('conv_o', [{ role: 'user', content: 'hi' }]);
    await store.saveTaskInfo({ taskId: 'task_of_b', agentName: 'alpha', description: 'b', ownerSessionId: 'conv_b' });
    await store.append('task_of_b', [{ role: 'user', content: "conv_b's task" }]);
    await redis.sadd(keys.sessionTasks('conv_o'), 'task_of_b');

    await store.delete('conv_o');
    expect(await store.load('task_of_b')).toEqual([{ role: 'user', content: "conv_b's task" }]);
    expect(await store.loadTaskInfo('task_of_b')).toMatchObject({ ownerSessionId: 'conv_b' });
    expect(await redis.exists(keys.deletedTask('task_of_b'))).toBe(0); // still writable
    expect(warnings.messages.join('\n')).toContain('holds no task info of it');
  });

  it('a record naming the conversation as the owner of another conversation: the other conversation is not deleted', async () => {
    const { redis, keys, store, warnings } = scene();
    await store.append('victim', [{ role: 'user', content: 'my own conversation' }]);
    await store.saveGrant('victim', grant);
    await store.append('attacker', [{ role: 'user', content: 'hi' }]);
    // Both halves of a task record, as saveTaskInfo would write them, planted for "victim".
    await plantTaskRecord(redis, keys, 'victim', 'attacker');

    await store.delete('attacker');
    expect(await store.load('victim')).toEqual([{ role: 'user', content: 'my own conversation' }]);
    expect(await store.loadGrants('victim')).toEqual([grant]);
    expect(await redis.zscore(keys.sessionIndex(), 'victim')).not.toBeNull();
    expect(await redis.exists(keys.deletedTask('victim'))).toBe(0);
    expect(warnings.messages.join('\n')).toContain('names it as the owner of "victim", which the index lists as a conversation');
  });
});
