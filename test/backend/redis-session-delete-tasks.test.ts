/**
 * Deleting a conversation from the Redis session store deletes the tasks it started (their
 * messages and task info), so a new conversation taking the id cannot resume them
 * (docs/sessions.md, "Deleting a conversation"); another conversation's tasks stay, and an
 * id put in the conversation's task set by hand is no task of it. A worker still running one
 * of its tasks when the delete returns (its cancel is a message on its way) writes nothing
 * of it back: those are the writes it would make, made after the delete.
 */
import { describe, expect, it } from 'vitest';
import { putWaitingResult } from '../../src/backend/waiting-result-put.js';
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

  // A late write used to bring the task's transcript back, and, its task info gone, list it
  // as a conversation; a late result waited for the next conversation taking the id.
  it("refuses the writes a worker still running one of its tasks makes after the delete: its transcript, its result", async () => {
    const { backend } = redisFile;
    const store = backend.sessions;
    await store.append('gone', [{ role: 'user', content: 'hi' }]);
    await store.saveTaskInfo({ taskId: 'task_late', agentName: 'alpha', description: 'late', ownerSessionId: 'gone' });
    await store.append('task_late', [{ role: 'user', content: 'secret' }]);

    await store.delete('gone');
    const late = { role: 'assistant', content: 'written after the delete' } as const;
    await expect(store.append('task_late', [late])).rejects.toThrow('the session "task_late" is a task of a deleted conversation: nothing more is written to it');
    await expect(store.replace('task_late', [late])).rejects.toThrow(/deleted conversation/);
    await expect(store.saveGrant('task_late', { toolName: 'bash', subject: 'ls' })).rejects.toThrow(/deleted conversation/);
    const now = Date.now();
    await putWaitingResult(backend.parts.redis, backend.parts.keys, { taskId: 'task_late', agentName: 'alpha', description: 'late', sessionId: 'gone', parentRunId: 'run_gone', background: true, state: 'done', result: 'old news', startedAt: now, endedAt: now });

    expect(await store.loadArchive('task_late')).toEqual([]);
    expect((await store.list()).map((s) => s.sessionId)).not.toContain('task_late');
    expect(await backend.parts.redis.hlen(backend.parts.keys.results('gone'))).toBe(0);
    // A new conversation taking the id is written as any other.
    await store.append('gone', [{ role: 'user', content: 'new' }]);
    expect(await store.load('gone')).toEqual([{ role: 'user', content: 'new' }]);
  });

  // A task its delete had not stopped yet could start one: unmarked and unknown to the delete,
  // it wrote its transcript, and a new conversation of the id listed it among its tasks.
  it('refuses a task that a task of the deleted conversation starts after the delete', async () => {
    const { backend } = redisFile;
    const store = backend.sessions;
    await store.saveTaskInfo({ taskId: 'task_parent', agentName: 'alpha', description: 'p', ownerSessionId: 'conv_g', parentSessionId: 'conv_g' });
    await store.delete('conv_g');
    const grandchild = { taskId: 'task_grand', agentName: 'alpha', description: 'g', ownerSessionId: 'conv_g', parentSessionId: 'task_parent' };
    await expect(store.saveTaskInfo(grandchild)).rejects.toThrow('the session "task_parent" is a task of a deleted conversation: it starts no more tasks');
    expect(await store.loadTaskInfo('task_grand')).toBeUndefined();
    expect(await backend.parts.redis.exists(backend.parts.keys.sessionTasks('conv_g'))).toBe(0);
    // The conversation itself (a new one of the id) starts tasks as any other.
    await store.saveTaskInfo({ taskId: 'task_new', agentName: 'alpha', description: 'n', ownerSessionId: 'conv_g', parentSessionId: 'conv_g' });
    expect(await store.loadTaskInfo('task_new')).toMatchObject({ ownerSessionId: 'conv_g' });
  });

  it('deletes and marks a task started while the delete runs (after it read the task set, before its marks)', async () => {
    const { backend } = redisFile;
    const store = backend.sessions;
    await store.saveTaskInfo({ taskId: 'task_p2', agentName: 'alpha', description: 'p', ownerSessionId: 'conv_r', parentSessionId: 'conv_r' });
    // One connection answers in order: the delete's read of the set comes first, this start next, the marks after.
    const deleting = store.delete('conv_r');
    const starting = store.saveTaskInfo({ taskId: 'task_g2', agentName: 'alpha', description: 'g', ownerSessionId: 'conv_r', parentSessionId: 'task_p2' });
    await Promise.all([deleting, starting]);
    expect(await store.loadTaskInfo('task_g2')).toBeUndefined();
    await expect(store.append('task_g2', [{ role: 'user', content: 'late' }])).rejects.toThrow(/deleted conversation/);
    expect(await backend.parts.redis.exists(backend.parts.keys.sessionTasks('conv_r'))).toBe(0);
  });
});
