import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { TaskTracker, type TaskInfo } from '../../src/delegation/task-tracker.js';
import { EMPTY_HOME } from '../support/empty-home.js';

/** Watches `changes`: every snapshot, and whether (and when) it completed. */
function watch(tracker: TaskTracker) {
  const seen: Array<[string, string]> = [];
  const watcher = { seen, completed: false };
  tracker.changes.subscribe({
    next: (t: TaskInfo) => seen.push([t.taskId, t.state]),
    complete: () => {
      watcher.completed = true;
      seen.push(['(complete)', '']);
    },
  });
  return watcher;
}

function startTask(tracker: TaskTracker, taskId: string, background: boolean): void {
  tracker.start(
    { taskId, agentName: 'alpha', description: taskId, sessionId: 's1', parentRunId: 'run_1', background },
    // a background task settles a moment after it is cancelled, as a real child run does
    () => setTimeout(() => tracker.finish(taskId, 'cancelled', 'ERROR: cancelled'), 5),
  );
}

describe('TaskTracker.close() and changes', () => {
  it('completes changes once the cancelled background tasks have settled, after their last snapshots', async () => {
    const tracker = new TaskTracker();
    const watcher = watch(tracker);
    startTask(tracker, 'bg', true);
    const closing = tracker.close();
    expect(watcher.completed).toBe(false);
    await closing;
    expect(watcher.seen).toEqual([
      ['bg', 'running'],
      ['bg', 'cancelled'],
      ['(complete)', ''],
    ]);
  });

  it('completes changes at once when nothing runs, and for whoever subscribes later', async () => {
    const tracker = new TaskTracker();
    const early = watch(tracker);
    await tracker.close();
    expect(early.completed).toBe(true);
    expect(watch(tracker).completed).toBe(true);
    await tracker.close(); // a second close is harmless
  });

  it('completes engine.tasks.changes on engine.close()', async () => {
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'hi' }]), homeDir: EMPTY_HOME });
    let completed = false;
    engine.tasks.changes.subscribe({ complete: () => (completed = true) });
    await engine.close();
    expect(completed).toBe(true);
  });
});
