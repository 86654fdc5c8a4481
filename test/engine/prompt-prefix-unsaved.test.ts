/**
 * A prompt shows the newest background results and gives the older ones back at once; when
 * the prompt then cannot be saved, what it showed goes back too. Put back in front of the
 * older ones, the newer results were the first the waiting list's bound dropped (a later
 * result of the conversation then dropped task 3 of 1-6, not task 1). All go back in the
 * order they finished.
 */
import { describe, expect, it } from 'vitest';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import { backgroundPrefix } from '../../src/engine/prompt-prefix.js';

function finished(tracker: TaskTracker, taskId: string): void {
  tracker.start({ taskId, agentName: 'digger', description: `bg ${taskId}`, sessionId: 's', parentRunId: 'run_1', background: true }, () => undefined);
  tracker.finish(taskId, 'done', `result of ${taskId}`);
}

describe('backgroundPrefix', () => {
  it('shows the newest four (maxResultChars 100) and leaves the others waiting', () => {
    const tracker = new TaskTracker({ undeliveredResults: 6 });
    for (let i = 1; i <= 6; i++) finished(tracker, `task_${i}`);
    const prefix = backgroundPrefix(tracker, 's', 100);
    expect([...prefix.text.matchAll(/<description>bg (task_\d)<\/description>/g)].map((m) => m[1])).toEqual(['task_3', 'task_4', 'task_5', 'task_6']);
    expect(tracker.takeUndelivered('s').map((t) => t.taskId)).toEqual(['task_1', 'task_2']);
  });

  it('a prompt that could not be saved gives everything back in the order it finished: the bound then drops the oldest', () => {
    const tracker = new TaskTracker({ undeliveredResults: 6 });
    for (let i = 1; i <= 6; i++) finished(tracker, `task_${i}`);
    backgroundPrefix(tracker, 's', 100).unsaved();
    expect(tracker.list('s').length).toBe(6);
    finished(tracker, 'task_7'); // one more of the conversation: seven wait for a bound of six
    expect(tracker.takeDropped('s')).toEqual({ count: 1, taskIds: ['task_1'] });
    expect(tracker.takeUndelivered('s').map((t) => t.taskId)).toEqual(['task_2', 'task_3', 'task_4', 'task_5', 'task_6', 'task_7']);
  });
});
