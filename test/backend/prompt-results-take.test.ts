/**
 * A prompt of a conversation with more background results waiting than it shows
 * (`shownAtOnce`: 480 by default) takes them all and gives the older ones back in the same
 * turn (`backgroundPrefix`). On Redis, each prompt used to take every one of them, then write
 * each unshown one back (a put script each, announced, so every other engine read each back):
 * 600 waiting were 121 scripts, 9,023 commands in all with two other engines (now 1 and
 * 5,304), every prompt, for as long
 * as more than 480 waited. Now a take is sent at the end of its turn, less what was given back
 * in it: one script taking the 480 shown, and the others never leave their place in the bound.
 */
import { describe, expect, it } from 'vitest';
import { publishResult, SharedResults } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { shownAtOnce } from '../../src/engine/background-results.js';
import { backgroundPrefix } from '../../src/engine/prompt-prefix.js';
import { allCalls } from './command-stats.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

const STALL_MS = 60_000;
const WAITING = 600;
const MAX_RESULT_CHARS = 12_000;

describe.skipIf(!HAS_REDIS)('a prompt with more background results waiting than it shows', () => {
  const scale = useScaleKits();
  const t = Date.now();
  const result = (i: number): TaskInfo => ({ taskId: `task_${i}`, agentName: 'explorer', description: 'd', sessionId: 'ses_many', parentRunId: 'run_r', background: true, state: 'done', startedAt: t, endedAt: t + i, result: `answer ${i}` });

  it('takes only the shown ones out of Redis: the older ones stay where they were, on every engine', { timeout: 120_000 }, async () => {
    const k = await scale.kit(STALL_MS);
    const [one, other] = [await k.backend(), await k.backend()];
    const { redis, keys } = one.parts;
    const tracker = one.createTracker();
    const watcher = await SharedResults.create(other.parts.redis, keys, other.parts.hub);
    try {
      for (let i = 0; i < WAITING; i++) await publishResult(redis, keys, result(i));
      for (const backend of [one, other, one, other]) await caughtUp(backend);
      await waitFor(() => watcher.results.size === WAITING);
      const places = await redis.zrange(keys.waitingOrder, '0', '-1', 'WITHSCORES');

      const before = await allCalls(redis);
      const { text } = backgroundPrefix(tracker, 'ses_many', MAX_RESULT_CHARS);
      const shown = shownAtOnce(MAX_RESULT_CHARS);
      expect(text).toContain(`(${WAITING - shown} older background task results are waiting`);
      await waitFor(async () => (await redis.hlen(keys.results('ses_many'))) === WAITING - shown);
      for (const backend of [one, other, one, other]) await caughtUp(backend);
      const after = await allCalls(redis);
      const ran = (name: string): number => (after.get(name) ?? 0) - (before.get(name) ?? 0);
      const total = [...after].reduce((sum, [name, count]) => sum + count - (before.get(name) ?? 0), 0);

      // One script (the take of the shown ones), no put-back: nothing written back, nothing read back.
      expect(ran('eval') + ran('evalsha')).toBe(1);
      expect(ran('publish')).toBe(1);
      expect(ran('hset')).toBe(0);
      // Seven commands a shown result in the take's script, two in each other copy's check of
      // the take (two here), and the barriers above: the unshown ones cost nothing.
      expect(total).toBeLessThan((7 + 2 * 2) * shown + 100);
      // The older ones never left their place in the bound's order.
      expect(await redis.zrange(keys.waitingOrder, '0', '-1', 'WITHSCORES')).toEqual(places.slice(0, 2 * (WAITING - shown)));
      // The other engine's copy dropped the shown ones and kept the others.
      await waitFor(() => watcher.results.size === WAITING - shown);
      const next = backgroundPrefix(tracker, 'ses_many', MAX_RESULT_CHARS).text;
      expect(next).toContain('<task_id>task_0</task_id>');
      expect(next).not.toContain(`<task_id>task_${WAITING - 1}</task_id>`);
    } finally {
      watcher.stop();
      await tracker.close();
    }
  });
});
