import { describe, expect, it } from 'vitest';
import { TaskTracker, type TaskInfo } from '../../src/delegation/task-tracker.js';

const info = (taskId: string, sessionId = 'conv'): Omit<TaskInfo, 'state' | 'startedAt'> => ({
  taskId,
  sessionId,
  agentName: 'alpha',
  description: `job ${taskId}`,
  parentRunId: 'run_1',
  background: true,
});

// A background task first queued, then given its slot, is one task: counted once, uncounted once.
// Counted twice, its conversation would keep a running task for ever (and an HTTP run's slot with it).
describe('a background task queued, then started', () => {
  it('is no longer counted as running once it settles', () => {
    const tracker = new TaskTracker();
    tracker.queue(info('t1'), () => undefined);
    expect(tracker.runningBackgroundOf('conv')).toBe(1);
    tracker.start(info('t1'), () => undefined);
    expect(tracker.runningBackgroundOf('conv')).toBe(1);
    tracker.finish('t1', 'done', 'ok');
    expect(tracker.runningBackgroundOf('conv')).toBe(0);
    expect(tracker.takeUndelivered('conv').map((t) => t.result)).toEqual(['ok']);
  });

  it('orphaned while queued stays orphaned once started, and leaves the conversation id free after', () => {
    const tracker = new TaskTracker();
    tracker.queue(info('t1'), () => undefined);
    tracker.forgetSession('conv');
    tracker.start(info('t1'), () => undefined);
    tracker.finish('t1', 'done', 'of the forgotten conversation');
    expect(tracker.takeUndelivered('conv')).toEqual([]);
    // a new conversation with the same id: its background task is not orphaned by the old one's
    tracker.start(info('t2'), () => undefined);
    tracker.finish('t2', 'done', 'of the new conversation');
    expect(tracker.runningBackgroundOf('conv')).toBe(0);
    expect(tracker.takeUndelivered('conv').map((t) => t.result)).toEqual(['of the new conversation']);
  });
});
