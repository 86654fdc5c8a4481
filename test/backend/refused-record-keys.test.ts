/**
 * What the warnings about bad Redis data show of a planted key: it goes to a terminal
 * (stderr), so a key megabytes long must not flood it, nor a key with escape sequences
 * clear the screen, retitle the window or hide the rest of the message. A key is shown by
 * at most 200 characters marked, its start then `…` (`shownKey`), every control or invisible character
 * marked (`<U+001B>`): the load warning (`RefusedRecords`) and the tasks channel's.
 */
import { describe, expect, it } from 'vitest';
import { markInvisible } from '../../src/text/visible-text.js';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

const STALL_MS = 60_000;
/** Clears the screen, retitles the window, and a bidi override turns what follows around. */
const ESCAPES = '\u001b[2J\u001b]0;owned\u0007\u202e\u009b31m';

describe.skipIf(!HAS_REDIS)('planted keys in the bad-data warnings', () => {
  const scale = useScaleKits();

  it('the load warning names a key far longer than 200 characters by its start (200 characters with the …), and marks escapes', async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const long = keys.task(`task_${'x'.repeat(100_000)}`);
    const escaped = keys.task(`task_${ESCAPES}end`);
    await redis.set(long, '{"state":"running"}', 'PX', 60_000);
    await redis.set(escaped, 'not json', 'PX', 60_000);
    const warnings = badDataWarnings();
    try {
      await k.backend();
      await warningsDelivered();
      expect(warnings.messages).toHaveLength(1);
      const [said] = warnings.messages as [string];
      expect(said).toContain('Skipped 2 task records in Redis');
      expect(said).toContain(`${long.slice(0, 199)}… (a running record needs taskId`);
      expect(said).not.toContain(long.slice(0, 201));
      expect(said).toContain(`${markInvisible(escaped)} (it is not a JSON object)`);
      expect(said).toContain(':task:task_<U+001B>[2J<U+001B>]0;owned<U+0007><U+202E><U+009B>31mend');
      expect(said).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
      expect(said.length).toBeLessThan(1000);
      // Left as they were.
      expect(await redis.exists(long, escaped)).toBe(2);
    } finally {
      warnings.stop();
    }
  });

  it('the tasks channel warning does the same for a forged announcement', async () => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys } = backend.parts;
    const tracker = backend.createTracker();
    const warnings = badDataWarnings();
    try {
      const taskId = `task_${ESCAPES}${'y'.repeat(100_000)}`;
      await redis.publish(keys.tasksChannel, JSON.stringify({ op: 'put', info: { taskId, state: 'running' }, owner: 'instance_f' }));
      await waitFor(async () => {
        await warningsDelivered();
        return warnings.messages.length > 0;
      });
      expect(warnings.messages).toHaveLength(1);
      const [said] = warnings.messages as [string];
      // The message is named by its start, 200 characters once marked, as every channel's bad messages are.
      const shown = markInvisible(JSON.stringify({ op: 'put', info: { taskId } })).slice(0, 199);
      expect(said).toContain(`(its task record: taskId must be a non-empty string of at most 1024 characters in a running record): ${shown}…`);
      expect(said).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
      expect(said.length).toBeLessThan(1000);
      expect(tracker.get(taskId)).toBeUndefined();
    } finally {
      warnings.stop();
      await tracker.close();
    }
  });
});
