/**
 * A task record planted under the id of a conversation the index lists, as an attacker would
 * write it (its own id as the task, the attacker's conversation as the owner). Its writes used
 * to stop refreshing its index score (the write script took any task record for a task
 * session), so once `sessionTtlMs` passed another write pruned it from the index while its
 * messages lived on: no longer listed, and the planted owner's delete then removed it. And a
 * resume "as that task" took the record for the task's owner, so the attacker could read it.
 *
 * Time passing is played by a fake `Date` only (the time the store scores writes by); Redis
 * keeps the keys for the whole `sessionTtlMs` in real time, so no key expires meanwhile.
 */
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RedisSessionStore } from '../../src/backend/redis-session-store.js';
import { checkResumable$ } from '../../src/delegation/check-resumable.js';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import { plantTaskRecord, warningsDelivered } from './planted-data.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { plantedScenesPerTest, type PlantedScene } from './support/planted-scene.js';

/** The store's `sessionTtlMs` here: long in real time, passed in fake time by steps of {@link STEP_MS}. */
const TTL_MS = 120_000;
const STEP_MS = 50_000;

describe.skipIf(!HAS_REDIS)('Redis sessions: a task record planted under a listed conversation', () => {
  const redisFile = redisBackendPerFile('plantedtaskids', 60_000);
  const scene = plantedScenesPerTest(redisFile);
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A store with a short `sessionTtlMs`, a conversation "victim" and one "attacker", and the planted record (with its half in the attacker's task set). */
  async function planted({ redis, keys }: PlantedScene, prefix: string): Promise<{ store: RedisSessionStore; victim: string; attacker: string }> {
    const store = new RedisSessionStore(redis, keys, TTL_MS);
    const [victim, attacker] = [`${prefix}_victim`, `${prefix}_attacker`];
    await store.append(victim, [{ role: 'user', content: 'my own conversation' }]);
    await store.append(attacker, [{ role: 'user', content: 'hi' }]);
    await plantTaskRecord(redis, keys, victim, attacker);
    return { store, victim, attacker };
  }

  it('its writes keep refreshing its index score past sessionTtlMs: still listed, and not deleted with the planted owner', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const at = scene();
    const { redis, keys } = at;
    const { store, victim, attacker } = await planted(at, 'ttl');
    // Three steps: well past sessionTtlMs since its first write, its writes an append, a compaction, an append.
    const writes = [
      () => store.append(victim, [{ role: 'assistant', content: 'a1' }]),
      () => store.replace(victim, [{ role: 'user', content: 'my own conversation' }, { role: 'assistant', content: 'a1' }]),
      () => store.append(victim, [{ role: 'user', content: 'q2' }]),
    ];
    for (const write of writes) {
      vi.setSystemTime(Date.now() + STEP_MS);
      await write();
      expect(await redis.zscore(keys.sessionIndex(), victim)).toBe(String(Date.now()));
    }
    // The attacker's write prunes what is older than sessionTtlMs: the victim's entry was, when its writes did not refresh it.
    await store.append(attacker, [{ role: 'user', content: 'again' }]);
    expect((await store.list()).map((s) => s.sessionId)).toEqual(expect.arrayContaining([victim]));
    await store.delete(attacker);
    expect(await store.load(victim)).toHaveLength(3);
    expect((await store.list()).map((s) => s.sessionId)).toContain(victim);
    await store.delete(victim);
  });

  it('a task session (a consistent record before its first write) is still not indexed; a conversation with an inconsistent record is', async () => {
    const { redis, keys } = scene();
    const store = new RedisSessionStore(redis, keys, TTL_MS);
    await store.saveTaskInfo({ taskId: 'real_task', agentName: 'alpha', description: 't', ownerSessionId: 'real_owner' });
    await store.append('real_task', [{ role: 'user', content: 'task prompt' }]);
    await redis.set(keys.taskInfo('odd_conv'), JSON.stringify({ taskId: 'someone_else', agentName: 'alpha', description: 'x', ownerSessionId: 'real_owner' }));
    await store.append('odd_conv', [{ role: 'user', content: 'a conversation' }]);
    expect(await redis.zscore(keys.sessionIndex(), 'real_task')).toBeNull();
    expect(await redis.zscore(keys.sessionIndex(), 'odd_conv')).not.toBeNull();
    await store.delete('odd_conv');
  });

  it('a resume "as that task" from the planted owner is refused as an unknown task, with a warning naming the key (refused before any transcript is read)', async () => {
    const at = scene();
    const { keys, warnings } = at;
    const { store, victim, attacker } = await planted(at, 'resume');
    expect(await store.loadTaskInfo(victim)).toBeUndefined();
    await expect(firstValueFrom(checkResumable$(victim, 'alpha', attacker, new TaskTracker(), store), { defaultValue: undefined })).rejects.toMatchObject({
      name: 'TaskRefusedError',
      message: `unknown task id "${victim}"; start a new task without task_id`,
    });
    await warningsDelivered();
    expect(warnings.messages.join('\n')).toContain(`Redis key ${keys.taskInfo(victim)} names "${attacker}" as the owner of task "${victim}", but the index lists "${victim}" as a conversation`);
    // A real task of the attacker still resumes.
    await store.saveTaskInfo({ taskId: 'resume_task', agentName: 'alpha', description: 't', ownerSessionId: attacker });
    await expect(firstValueFrom(checkResumable$('resume_task', 'alpha', attacker, new TaskTracker(), store), { defaultValue: 'none' })).resolves.toBeUndefined();
    await store.delete(attacker);
    await store.delete(victim);
  });
});
