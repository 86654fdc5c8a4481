/**
 * `RedisSessionStore.delete` when Redis refuses a command of its transaction in place (its
 * ACLs changed between the queuing and the `EXEC`) while the rest goes through: Redis undoes
 * nothing. The message used to say "delete the conversation again" whatever was refused, but
 * the same transaction takes the tasks out of the conversation's task set: a retry no longer
 * finds them, and their transcripts stayed. It now says what a retry finishes, and gives the
 * commands that do the rest; each is checked here by doing what it says.
 */
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisSessionStore } from '../../src/backend/redis-session-store.js';
import { execHoldProxy, type ExecHoldProxy } from './exec-hold-proxy.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const USER = 'deleter';

describe.skipIf(!HAS_REDIS)('RedisSessionStore.delete: a command Redis refuses in place', () => {
  const redisFile = redisBackendPerFile('sessiondeleterefused', 60_000);
  let proxy: ExecHoldProxy;
  let limited: Redis;
  let store: RedisSessionStore;
  beforeEach(async () => {
    const { backend, redis: server } = redisFile;
    await backend.parts.redis.call('ACL', 'SETUSER', USER, 'reset', 'on', '>pw', '~*', '&*', '+@all');
    proxy = await execHoldProxy(server.port);
    limited = new Redis({ port: proxy.port, host: '127.0.0.1', username: USER, password: 'pw', maxRetriesPerRequest: 0 });
    store = new RedisSessionStore(limited, backend.parts.keys, 60_000);
  });
  afterEach(async () => {
    limited.disconnect();
    await proxy.close();
    await redisFile.backend.parts.redis.call('ACL', 'DELUSER', USER);
  });

  /** A conversation with one task that has a transcript; the next transaction naming `trigger` has `denied` refused at its EXEC. */
  async function conversationRefusing(id: string, trigger: (task: string) => string, denied: readonly string[]): Promise<string> {
    const { backend } = redisFile;
    const task = `${id}_task`;
    await backend.sessions.append(id, [{ role: 'user', content: 'hi' }]);
    await backend.sessions.saveTaskInfo({ taskId: task, agentName: 'alpha', description: 't', ownerSessionId: id });
    await backend.sessions.append(task, [{ role: 'user', content: 'secret' }]);
    proxy.arm(trigger(task), () => backend.parts.redis.call('ACL', 'SETUSER', USER, ...denied.map((c) => `-${c}`)));
    return task;
  }

  const allow = (): Promise<unknown> => redisFile.backend.parts.redis.call('ACL', 'SETUSER', USER, '+@all');
  const keys = (): typeof redisFile.backend.parts.keys => redisFile.backend.parts.keys;

  it("the tasks' DEL refused (not the set's SREM): a retry finishes the conversation, and the message gives the DEL it cannot redo", async () => {
    const sessions = redisFile.backend.sessions;
    const task = await conversationRefusing('conv_a', (t) => keys().task(t), ['del']);
    const error = await store.delete('conv_a').then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toMatch(/^Redis failed while deleting a session: Redis refused DEL .*:session:conv_a \(and 7 more keys\), DEL .*:session:conv_a_task \(and 7 more keys\) \(NOPERM .*finishes the rest but cannot redo DEL .*:session:conv_a_task /);
    expect(error?.message).toContain("the same transaction took the tasks out of the conversation's task set, so a retry no longer finds them");
    await allow();
    // What the message says: a retry finishes the conversation's own keys, not the task's.
    await store.delete('conv_a');
    expect(await sessions.load('conv_a')).toEqual([]);
    expect(await sessions.load(task)).toEqual([{ role: 'user', content: 'secret' }]);
    expect(await sessions.loadTaskInfo(task)).toMatchObject({ ownerSessionId: 'conv_a' });
    // And the command it gives removes the rest.
    for (const command of byHand(error!.message)) await redisFile.backend.parts.redis.call(...command);
    expect(await sessions.load(task)).toEqual([]);
    expect(await sessions.loadTaskInfo(task)).toBeUndefined();
  });

  it("the tasks' DEL and the set's SREM refused: the message says a retry finishes it, and it does", async () => {
    const sessions = redisFile.backend.sessions;
    const task = await conversationRefusing('conv_b', (t) => keys().task(t), ['del', 'srem']);
    const error = await store.delete('conv_b').then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toMatch(/Redis refused DEL .*, DEL .*, SREM .*:sessiontasks:conv_b \(NOPERM/);
    expect(error?.message).toMatch(/then delete the conversation again, which finishes it$/);
    expect(error?.message).not.toContain('by hand');
    expect(await sessions.load(task)).toEqual([{ role: 'user', content: 'secret' }]);
    await allow();
    await store.delete('conv_b');
    expect(await sessions.load('conv_b')).toEqual([]);
    expect(await sessions.load(task)).toEqual([]);
    expect(await sessions.loadTaskInfo(task)).toBeUndefined();
  });

  it('a mark refused: nothing of the tasks was deleted yet, and a retry finishes it', async () => {
    const sessions = redisFile.backend.sessions;
    const task = await conversationRefusing('conv_c', (t) => keys().deletedTask(t), ['set']);
    const error = await store.delete('conv_c').then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toMatch(/Redis refused SET .*:deletedtask:conv_c_task .*NOPERM.* before anything of them was deleted: .*then delete the conversation again, which finishes it$/);
    expect(await sessions.load('conv_c')).toEqual([{ role: 'user', content: 'hi' }]);
    await allow();
    await store.delete('conv_c');
    expect(await sessions.load('conv_c')).toEqual([]);
    expect(await sessions.load(task)).toEqual([]);
  });
});

/** The commands a delete's message says to run by hand (their arguments plain words here). */
function byHand(message: string): [string, ...string[]][] {
  const commands = /run by hand \(redis-cli\): (.*?)(?:; then delete the conversation again)?$/.exec(message)?.[1];
  expect(commands).toBeDefined();
  return commands!.split(' ; ').map((text) => text.split(' ') as [string, ...string[]]);
}
