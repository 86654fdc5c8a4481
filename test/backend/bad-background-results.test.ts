/**
 * Entries of the background-results hashes (one per conversation) that no engine or worker
 * writes, found as a backend loads what waits in Redis. They used to be skipped without a
 * word; now they are said in one warning per load (`RefusedRecords`, code
 * `RXHARNESS_BAD_REDIS_DATA`), however many there are: nothing is thrown, the good results
 * are still delivered, and the bad entries stay in Redis as they are.
 */
import { describe, expect, it } from 'vitest';
import { publishResult } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const STALL_MS = 60_000;
const SESSIONS = 5;

describe.skipIf(!HAS_REDIS)('bad entries of the background-results hashes', () => {
  const scale = useScaleKits();

  it('10,000 of them make one warning; the good results are still delivered, the bad ones stay', { timeout: 120_000 }, async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const t = Date.now();
    const good = (i: number): TaskInfo => ({ taskId: `task_good_${i}`, agentName: 'explorer', description: 'd', sessionId: `ses_${i}`, parentRunId: 'run_r', background: true, state: 'done', startedAt: t, endedAt: t + 1, result: `answer ${i}` });
    for (let i = 0; i < SESSIONS; i++) await publishResult(redis, keys, good(i));
    // Not JSON, not an object, a snapshot missing its fields, one live yet ended, a string with escapes.
    const bad = ['not json', '[]', 'null', '{"state":"done"}', JSON.stringify({ ...good(0), state: 'running' }), '"\u001b[2J"'];
    for (let from = 0; from < 10_000; from += 1000) {
      const batch = redis.multi();
      for (let i = from; i < from + 1000; i++) batch.hset(keys.results(`ses_${i % SESSIONS}`), `task_bad_${i}\n${t}`, bad[i % bad.length]!);
      await batch.exec();
    }
    const warnings = badDataWarnings();
    try {
      const backend = await k.backend();
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(1);
      const [said] = warnings.messages as [string];
      expect(said).toMatch(/^Skipped 10000 background results in Redis that are not what an engine writes: .*:results:ses_\d field task_bad_\d+<U\+000A>\d+ \(.+\).*, and 9997 more\. Not delivered, left as they are/);
      expect(said).not.toContain('\u001b');

      const tracker = backend.createTracker();
      try {
        for (let i = 0; i < SESSIONS; i++) expect(tracker.takeUndelivered(`ses_${i}`).map((r) => r.result)).toEqual([`answer ${i}`]);
      } finally {
        await tracker.close();
      }
      for (let i = 0; i < SESSIONS; i++) {
        const fields = await redis.hkeys(keys.results(`ses_${i}`));
        expect(fields.filter((f) => f.startsWith('task_bad_'))).toHaveLength(10_000 / SESSIONS);
      }
    } finally {
      warnings.stop();
    }
  });
});
