/**
 * Entries of the background-results hashes filed elsewhere than a put files them: a real
 * result under another field than its own (`<task>\n<run start>`), or under another
 * conversation's hash. Loaded, such an entry was delivered, but a take deletes the result's
 * own field, so it stayed in Redis and was delivered again by every engine that started.
 * Now they are refused at load, in the one warning per load (`RefusedRecords`), never
 * delivered, and left as they are; a result filed right is delivered as before.
 */
import { describe, expect, it } from 'vitest';
import { publishResult } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const STALL_MS = 60_000;

describe.skipIf(!HAS_REDIS)('background results filed under another field or conversation', () => {
  const scale = useScaleKits();

  it('are refused at every load, with one warning each, and left in Redis', { timeout: 60_000 }, async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const t = Date.now();
    const result = (taskId: string, sessionId: string): TaskInfo => ({ taskId, agentName: 'explorer', description: 'd', sessionId, parentRunId: 'run_r', background: true, state: 'done', startedAt: t, endedAt: t + 1, result: `answer of ${taskId}` });
    await publishResult(redis, keys, result('task_good', 'ses_a'));
    await redis.hset(keys.results('ses_a'), `task_field\n${t - 1}`, JSON.stringify(result('task_field', 'ses_a')));
    await redis.hset(keys.results('ses_b'), `task_other\n${t}`, JSON.stringify(result('task_other', 'ses_a')));
    for (let load = 0; load < 2; load++) {
      const warnings = badDataWarnings();
      try {
        const backend = await k.backend();
        await warningsDelivered();
        const tracker = backend.createTracker();
        try {
          expect(tracker.takeUndelivered('ses_a').map((r) => r.taskId)).toEqual(['task_good'].slice(load));
          expect(tracker.takeUndelivered('ses_b')).toEqual([]);
        } finally {
          await tracker.close();
        }
        if (load === 0) {
          expect(warnings.messages).toHaveLength(1);
          expect(warnings.messages[0]).toMatch(/^Skipped 2 background results in Redis that are not what an engine writes: /);
          expect(warnings.messages[0]).toContain(`field task_field<U+000A>${t - 1} (its task and run start are not those its field names)`);
          expect(warnings.messages[0]).toContain(`${keys.results('ses_b')} field task_other<U+000A>${t} (it names another conversation than its key's)`);
        }
      } finally {
        warnings.stop();
      }
    }
    expect(await redis.hlen(keys.results('ses_a'))).toBe(1);
    expect(await redis.hlen(keys.results('ses_b'))).toBe(1);
  });
});
