/**
 * Results and a note taken for a prompt that could not be saved go back to their
 * conversation's waiting list: in front (they are the oldest), within its bound, the note
 * added to any newer one.
 */
import { describe, expect, it } from 'vitest';
import { TaskTracker } from '../../src/delegation/task-tracker.js';

function finished(tracker: TaskTracker, taskId: string): void {
  tracker.start({ taskId, agentName: 'alpha', description: `job ${taskId}`, sessionId: 's1', parentRunId: 'run_1', background: true }, () => undefined);
  tracker.finish(taskId, 'done', `result ${taskId}`);
}

describe('TaskTracker.putBack', () => {
  it('puts taken results back in front of newer ones, and merges the note of dropped ones', () => {
    const tracker = new TaskTracker({ undeliveredResults: 2 });
    for (const id of ['b1', 'b2', 'b3']) finished(tracker, id);
    const taken = tracker.takeUndelivered('s1');
    const note = tracker.takeDropped('s1');
    expect(taken.map((t) => t.taskId)).toEqual(['b2', 'b3']);
    expect(note).toEqual({ count: 1, taskIds: ['b1'] });

    finished(tracker, 'b4'); // arrives while the prompt is being saved
    tracker.putBack('s1', taken, note);
    // Three wait for a bound of two: the oldest put back is dropped, and noted after b1.
    expect(tracker.takeUndelivered('s1').map((t) => t.taskId)).toEqual(['b3', 'b4']);
    expect(tracker.takeDropped('s1')).toEqual({ count: 2, taskIds: ['b1', 'b2'] });
  });

  it('puts nothing back for nothing taken', () => {
    const tracker = new TaskTracker();
    tracker.putBack('s1', [], undefined);
    expect(tracker.takeUndelivered('s1')).toEqual([]);
    expect(tracker.takeDropped('s1')).toBeUndefined();
  });
});
