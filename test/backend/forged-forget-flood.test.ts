/**
 * A flood of forged `forget` messages on the tasks and runs channels. Each forget of a task
 * or run an engine knows costs a read-back of its record (forged-forget.test.ts), and each one
 * used to send its own: 10,000 forged messages were 10,000 reads of Redis per engine. Now a
 * record has at most one read in flight per engine, and the forgets that arrive meanwhile cost
 * one more read after it, however many they were (gone-checks.ts). The copies stay right: the
 * flood drops none whose record Redis still holds, and a real forget right behind it still
 * drops the copy (the read in flight may have been answered before its record was deleted).
 */
import { describe, expect, it } from 'vitest';
import { forgetTasksMessage } from '../../src/backend/task-messages.js';
import { runsScene, tasksScene } from '../support/forged-forget-scene.js';
import { calls, flood } from './command-stats.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

const FLOOD = 10_000;

describe.skipIf(!HAS_REDIS)('a flood of forged forgets on the tasks and runs channels', () => {
  const scale = useScaleKits();

  it("costs a bounded number of reads of a task's record, keeps the copy, and a real forget behind it still drops it", async () => {
    const { a, b, keys, owner, watcher, attacker, stop } = await tasksScene(scale);
    try {
      const before = await calls(attacker, 'exists');
      await flood(attacker, keys.tasksChannel, forgetTasksMessage(['task_f']), FLOOD);
      for (let i = 0; i < 3; i++) await caughtUp(b);
      await caughtUp(a);
      expect(watcher.get('task_f')?.state).toBe('running');
      expect(owner.get('task_f')?.state).toBe('running');
      // Four copies hear the channel (the two backends' own and the two here): one read per
      // message was 40,000; one in flight per copy is a few per chunk the subscriber reads.
      expect((await calls(attacker, 'exists')) - before).toBeLessThan(FLOOD / 10);

      // A real forget (what a conversation's delete sends) right behind another flood.
      const behind = attacker.pipeline();
      for (let i = 0; i < FLOOD; i++) behind.publish(keys.tasksChannel, forgetTasksMessage(['task_f']));
      behind.del(keys.task('task_f')).publish(keys.tasksChannel, forgetTasksMessage(['task_f']));
      await behind.exec();
      await waitFor(() => watcher.get('task_f') === undefined);
    } finally {
      stop();
    }
  });

  it("costs a bounded number of reads of a run's record, keeps the copy, and a real forget behind it still drops it", async () => {
    const { a, b, keys, watcher, attacker, stopOwner, stop } = await runsScene(scale);
    try {
      stopOwner(); // as when its instance died (a live owner says its record again: forged-forget.test.ts)
      const forget = JSON.stringify({ op: 'forget', runId: 'run_f' });
      const before = await calls(attacker, 'hexists');
      await flood(attacker, keys.runsChannel, forget, FLOOD);
      for (let i = 0; i < 3; i++) await caughtUp(b);
      await caughtUp(a);
      expect(watcher.get('run_f')?.info.state).toBe('running');
      expect((await calls(attacker, 'hexists')) - before).toBeLessThan(FLOOD / 10);

      const behind = attacker.pipeline();
      for (let i = 0; i < FLOOD; i++) behind.publish(keys.runsChannel, forget);
      behind.hdel(keys.runs, 'run_f').publish(keys.runsChannel, forget);
      await behind.exec();
      await waitFor(() => watcher.get('run_f') === undefined);
    } finally {
      stop();
    }
  });
});
