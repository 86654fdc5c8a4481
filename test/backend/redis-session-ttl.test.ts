/**
 * Every write of a Redis session keeps all of it: its messages, archive, archive mark,
 * grants, task info and summary live `sessionTtlMs` after its last write of any kind. An
 * append used to renew only the messages, the summary and the index, so a conversation kept
 * going lost its compacted history and its "always" grants `sessionTtlMs` after they were
 * written, and a task session lost its task info (and was then listed as a conversation).
 * A conversation's writes keep the set of the tasks it started too (which a delete reads).
 *
 * Time passing is played by shortening each key's expiry by hand (`PEXPIRE`), not slept.
 */
import { describe, expect, it } from 'vitest';
import type { RedisBackend } from '../../src/backend/redis-backend.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const user = (n: number): ChatMessage => ({ role: 'user', content: `q${n}` });
const answer = (n: number): ChatMessage => ({ role: 'assistant', content: `a${n}` });

/** What is left of a key's life once "most of the time to live has passed". */
const AGED_MS = 60_000;

/** The keys a session may have, by what they hold. */
function sessionKeys(backend: RedisBackend, id: string): Record<string, string> {
  const k = backend.parts.keys;
  return { messages: k.session(id), archive: k.archive(id), mark: k.archived(id), grants: k.grants(id), taskInfo: k.taskInfo(id), summary: k.sessionSummary(id) };
}

/** Plays most of the time to live passing for every key of the session that exists. */
async function age(backend: RedisBackend, id: string): Promise<void> {
  for (const key of Object.values(sessionKeys(backend, id))) await backend.parts.redis.pexpire(key, AGED_MS);
}

/** Each existing key of the session by name, with what is left of its life. */
async function lives(backend: RedisBackend, id: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const [name, key] of Object.entries(sessionKeys(backend, id))) {
    const left = await backend.parts.redis.pttl(key);
    if (left !== -2) found[name] = left;
  }
  return found;
}

describe.skipIf(!HAS_REDIS)('the Redis session store keeps every key of a session as long as the session', () => {
  // The default sessionTtlMs (30 days): a renewed key has far more than AGED_MS left.
  const redisFile = redisBackendPerFile('sessionttl', 60_000);

  it('a conversation: an append, a grant and a compaction each renew its messages, archive, mark, grants and summary', async () => {
    const { backend } = redisFile;
    const store = backend.sessions;
    await store.append('conv', [user(1), answer(1), user(2), answer(2)]);
    await store.saveGrant('conv', { toolName: 'bash', subject: 'ls' });
    await store.replace('conv', [{ role: 'user', content: 'summary of 1' }, answer(2)]);
    const writes: Record<string, () => Promise<void>> = {
      append: () => store.append('conv', [user(3), answer(3)]),
      grant: () => store.saveGrant('conv', { toolName: 'bash', subject: 'pwd' }),
      compaction: () => store.replace('conv', [{ role: 'user', content: 'summary of all' }, answer(3)]),
    };
    for (const [write, run] of Object.entries(writes)) {
      await age(backend, 'conv');
      await run();
      // Which keys the write left with only the aged life (none should be).
      const left = await lives(backend, 'conv');
      const stale = Object.entries(left).filter(([, ms]) => ms <= AGED_MS).map(([name]) => name);
      expect({ write, keys: Object.keys(left).sort(), stale }).toEqual({ write, keys: ['archive', 'grants', 'mark', 'messages', 'summary'], stale: [] });
    }
    // And what it kept is whole: the compacted history, the grants.
    expect((await store.loadArchive('conv')).slice(0, 4)).toEqual([user(1), answer(1), user(2), answer(2)]);
    expect(await store.loadGrants('conv')).toHaveLength(2);
  });

  // Its task set used to be renewed only when a task started: a conversation kept going
  // for sessionTtlMs after its last task start lost it, and a delete then left its tasks.
  it("a conversation: an append, a grant and a compaction each renew the set of the tasks it started, so a delete still finds them", async () => {
    const { backend } = redisFile;
    const store = backend.sessions;
    const tasks = backend.parts.keys.sessionTasks('talk');
    await store.append('talk', [user(1)]);
    await store.saveTaskInfo({ taskId: 'task_t', agentName: 'explore', description: 'd', ownerSessionId: 'talk' });
    await store.append('task_t', [user(1)]);
    const writes: Record<string, () => Promise<void>> = {
      append: () => store.append('talk', [answer(1)]),
      grant: () => store.saveGrant('talk', { toolName: 'bash', subject: 'ls' }),
      compaction: () => store.replace('talk', [{ role: 'user', content: 'summary' }, answer(1)]),
    };
    for (const [write, run] of Object.entries(writes)) {
      await backend.parts.redis.pexpire(tasks, AGED_MS);
      await run();
      expect({ write, renewed: (await backend.parts.redis.pttl(tasks)) > AGED_MS }).toEqual({ write, renewed: true });
    }
    await store.delete('talk');
    expect(await store.load('task_t')).toEqual([]);
  });

  it('a task session: an append renews its task info (it stays a task, not listed as a conversation)', async () => {
    const { backend } = redisFile;
    const store = backend.sessions;
    await store.saveTaskInfo({ taskId: 'task_1', agentName: 'explore', description: 'd', ownerSessionId: 'owner' });
    await store.append('task_1', [user(1)]);
    await age(backend, 'task_1');
    await store.append('task_1', [answer(1)]);
    const left = await lives(backend, 'task_1');
    expect(Object.keys(left).sort()).toEqual(['messages', 'taskInfo']);
    expect(left['taskInfo']).toBeGreaterThan(AGED_MS);
    expect((await store.list()).map((s) => s.sessionId)).not.toContain('task_1');
  });
});
