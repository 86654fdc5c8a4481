/**
 * `RedisSessionStore.delete` when Redis discards a whole transaction of it (`EXECABORT`): a
 * command refused as it was queued (here an ACL that does not allow it; memory past
 * `maxmemory` does the same) makes Redis run none of the transaction. The message used to be
 * Redis's own ("Transaction discarded because of previous errors"), with no advice; it now
 * says nothing of that transaction was applied, where to look, and that deleting again
 * finishes it, which each test checks by doing it.
 */
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisSessionStore } from '../../src/backend/redis-session-store.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const USER = 'aborted_deleter';

describe.skipIf(!HAS_REDIS)('RedisSessionStore.delete: a transaction Redis discards whole (EXECABORT)', () => {
  const redisFile = redisBackendPerFile('sessiondeleteaborted', 60_000);
  let limited: Redis;
  let store: RedisSessionStore;
  beforeEach(async () => {
    const { backend, redis: server } = redisFile;
    await backend.parts.redis.call('ACL', 'SETUSER', USER, 'reset', 'on', '>pw', '~*', '&*', '+@all');
    limited = new Redis({ port: server.port, host: '127.0.0.1', username: USER, password: 'pw', maxRetriesPerRequest: 0 });
    store = new RedisSessionStore(limited, backend.parts.keys, 60_000);
  });
  afterEach(async () => {
    limited.disconnect();
    await redisFile.backend.parts.redis.call('ACL', 'DELUSER', USER);
  });

  /** A conversation with one task that has a transcript, the store's user denied `denied`. */
  async function conversationDenying(id: string, denied: string): Promise<string> {
    const { backend } = redisFile;
    const task = `${id}_task`;
    await backend.sessions.append(id, [{ role: 'user', content: 'hi' }]);
    await backend.sessions.saveTaskInfo({ taskId: task, agentName: 'alpha', description: 't', ownerSessionId: id });
    await backend.sessions.append(task, [{ role: 'user', content: 'secret' }]);
    await backend.parts.redis.call('ACL', 'SETUSER', USER, `-${denied}`);
    return task;
  }

  const allow = (): Promise<unknown> => redisFile.backend.parts.redis.call('ACL', 'SETUSER', USER, '+@all');

  // Each transaction of a delete, one command of it denied: Redis discards it whole.
  const cases = [
    { what: 'the transaction that deletes', denied: 'srem', id: 'conv_a' },
    { what: 'the transaction that marks the tasks deleted', denied: 'set', id: 'conv_b' },
    { what: "the read of the tasks' records", denied: 'zscore', id: 'conv_c' },
  ];
  it.each(cases)('$what (its $denied denied): nothing of it applied, the message says so, and a retry finishes the delete', async ({ denied, id }) => {
    const sessions = redisFile.backend.sessions;
    const task = await conversationDenying(id, denied);
    const error = await store.delete(id).then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toMatch(
      new RegExp(
        `^Redis failed while deleting a session: Redis discarded a whole transaction of the delete of conversation "${id}" \\(EXECABORT\\), ` +
          `having refused a command of it as it was queued \\(NOPERM [^)]*'${denied}'[^)]*\\), so nothing of that transaction was applied: ` +
          'see why in Redis \\(ACL LOG .*INFO memory .*\\), then delete the conversation again, which finishes it$',
      ),
    );
    // What the message says: none of it ran.
    expect(await sessions.load(id)).toEqual([{ role: 'user', content: 'hi' }]);
    expect(await sessions.load(task)).toEqual([{ role: 'user', content: 'secret' }]);
    expect(await sessions.loadTaskInfo(task)).toMatchObject({ ownerSessionId: id });
    await allow();
    await store.delete(id);
    expect(await sessions.load(id)).toEqual([]);
    expect(await sessions.load(task)).toEqual([]);
    expect(await sessions.loadTaskInfo(task)).toBeUndefined();
  });
});
