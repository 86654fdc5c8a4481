/**
 * A `forget` on the tasks channel (`<prefix>:tasks-events`) or the runs channel
 * (`<prefix>:runs-events`), which anyone with access to the Redis can publish, dropped every
 * engine's copy of the task or run it named until its next update: `tasks.get` and `runs.get`
 * said nothing of a task or run still going, so it could not be attached to, cancelled or
 * answered through another engine. Now a copy is forgotten only once Redis confirms its record
 * gone (a conversation's delete and `runs.forget` take it out before their message), as the
 * channels' other messages are read back.
 */
import { describe, expect, it } from 'vitest';
import { forgetTasksMessage } from '../../src/backend/task-messages.js';
import { runsScene, tasksScene } from '../support/forged-forget-scene.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('a forged forget on the tasks and runs channels', () => {
  const scale = useScaleKits();

  it("keeps every engine's copy of a task whose record Redis still holds; a real forget still drops it", async () => {
    const { b, keys, owner, watcher, attacker, stop } = await tasksScene(scale);
    try {
      await attacker.publish(keys.tasksChannel, forgetTasksMessage(['task_f', 'task_unknown']));
      await caughtUp(b);
      await caughtUp(b);
      expect(watcher.get('task_f')?.state).toBe('running');
      expect(owner.get('task_f')?.state).toBe('running');

      // What a conversation's delete sends: the record taken out, then the message, in one transaction.
      await attacker.multi().del(keys.task('task_f')).publish(keys.tasksChannel, forgetTasksMessage(['task_f'])).exec();
      await waitFor(() => watcher.get('task_f') === undefined);
    } finally {
      stop();
    }
  });

  it("keeps every engine's copy of another engine's run whose record Redis still holds; a real forget still drops it", async () => {
    const { b, keys, owner, watcher, attacker, stopOwner, stop } = await runsScene(scale);
    try {
      // Its owner no longer hears the channel (a live one says its record again: forged-run-record.test.ts),
      // as when its instance died: the copies are what the dead-owner sweep fails it from.
      stopOwner();
      await attacker.publish(keys.runsChannel, JSON.stringify({ op: 'forget', runId: 'run_f' }));
      await caughtUp(b);
      await caughtUp(b);
      expect(watcher.get('run_f')?.info.state).toBe('running');
      expect(watcher.runningOfOthers().get('owner')).toEqual(['run_f']);

      owner.forget('run_f');
      await waitFor(() => watcher.get('run_f') === undefined);
    } finally {
      stop();
    }
  });
});
