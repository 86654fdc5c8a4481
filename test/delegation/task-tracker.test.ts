import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { TaskTracker, type TaskInfo } from '../../src/delegation/task-tracker.js';

/** Registers a task the way the delegator does; returns its cancel spy. */
function start(tracker: TaskTracker, taskId: string, fields: { background?: boolean; sessionId?: string } = {}) {
  const cancel = vi.fn(() => tracker.finish(taskId, 'cancelled', 'ERROR: cancelled'));
  tracker.start(
    { taskId, agentName: 'alpha', description: `job ${taskId}`, sessionId: fields.sessionId ?? 's1', parentRunId: 'run_1', background: fields.background ?? false },
    cancel,
  );
  return cancel;
}

const ids = (tracker: TaskTracker): string[] => tracker.list().map((t) => t.taskId);

describe('TaskTracker', () => {
  it('names each run of a resumed task by a later start, even within one millisecond, and keeps the result of each', () => {
    vi.useFakeTimers({ now: 1_000 });
    try {
      const tracker = new TaskTracker({ retainFinished: 0 });
      start(tracker, 't1', { background: true });
      tracker.finish('t1', 'done', 'first');
      start(tracker, 't1', { background: true }); // resumed in the same millisecond
      tracker.finish('t1', 'done', 'second');
      const results = tracker.takeUndelivered('s1');
      expect(results.map((t) => t.result)).toEqual(['first', 'second']);
      expect(results[1]!.startedAt).toBeGreaterThan(results[0]!.startedAt);
    } finally {
      vi.useRealTimers();
    }
  });

  it('publishes a snapshot on start and on end; a second finish changes nothing', () => {
    const tracker = new TaskTracker();
    const seen: TaskInfo[] = [];
    tracker.changes.subscribe((t) => seen.push(t));
    start(tracker, 't1');
    tracker.finish('t1', 'done', 'the answer', { promptTokens: 1, completionTokens: 2, totalTokens: 3, durationMs: 4, tasks: 0 });
    tracker.finish('t1', 'failed', 'too late');
    expect(seen.map((t) => [t.taskId, t.state, t.result])).toEqual([
      ['t1', 'running', undefined],
      ['t1', 'done', 'the answer'],
    ]);
    expect(tracker.get('t1')).toMatchObject({ state: 'done', result: 'the answer', metrics: { totalTokens: 3 } });
    expect(tracker.get('t1')!.endedAt).toBeGreaterThanOrEqual(tracker.get('t1')!.startedAt);
  });

  it('whenSettled resolves with the final snapshot, at once for a settled task, undefined for an unknown one', async () => {
    const tracker = new TaskTracker();
    start(tracker, 't1');
    const waiting = tracker.whenSettled('t1');
    let resolved = false;
    void waiting.then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved).toBe(false);
    tracker.finish('t1', 'failed', 'ERROR: broke');
    expect(await waiting).toMatchObject({ taskId: 't1', state: 'failed', result: 'ERROR: broke' });
    expect(await tracker.whenSettled('t1')).toMatchObject({ state: 'failed' });
    expect(await tracker.whenSettled('nope')).toBeUndefined();
  });

  it('cancels only running tasks, through their own cancel function', () => {
    const tracker = new TaskTracker();
    const one = start(tracker, 't1');
    const two = start(tracker, 't2');
    expect(tracker.cancel('t1')).toBe(true);
    expect(one).toHaveBeenCalledTimes(1);
    expect(two).not.toHaveBeenCalled();
    expect(tracker.cancel('t1')).toBe(false);
    expect(tracker.cancel('nope')).toBe(false);
    expect(tracker.list().map((t) => t.state)).toEqual(['cancelled', 'running']);
  });

  it('keeps an event log for background tasks only', () => {
    const tracker = new TaskTracker();
    start(tracker, 'bg', { background: true });
    start(tracker, 'fg');
    const event: AgentEvent = { type: 'RunStart', runId: 'r', agentName: 'alpha', sessionId: 'bg', prompt: 'p' };
    tracker.log('bg', event);
    tracker.log('fg', event);
    expect(tracker.events('bg')).toEqual([event]);
    expect(tracker.events('fg')).toEqual([]);
    expect(tracker.events('unknown')).toEqual([]);
  });

  it('hands each finished background result to its own session once; foreground results never', () => {
    const tracker = new TaskTracker();
    start(tracker, 'b1', { background: true, sessionId: 's1' });
    start(tracker, 'b2', { background: true, sessionId: 's2' });
    start(tracker, 'f1', { sessionId: 's1' });
    start(tracker, 'b3', { background: true, sessionId: 's1' });
    for (const id of ['b1', 'b2', 'f1']) tracker.finish(id, 'done', `result ${id}`);
    expect(tracker.takeUndelivered('s1').map((t) => t.taskId)).toEqual(['b1']);
    expect(tracker.takeUndelivered('s1')).toEqual([]);
    tracker.finish('b3', 'failed', 'ERROR: broke');
    expect(tracker.takeUndelivered('s1').map((t) => [t.taskId, t.state])).toEqual([['b3', 'failed']]);
    expect(tracker.takeUndelivered('s2').map((t) => t.taskId)).toEqual(['b2']);
  });

  it('evicts the oldest finished tasks beyond its bound, but never running ones or undelivered results', () => {
    const tracker = new TaskTracker({ retainFinished: 2 });
    start(tracker, 'running');
    start(tracker, 'bg', { background: true });
    tracker.finish('bg', 'done', 'kept until delivered');
    const kept: string[][] = [];
    for (const id of ['f1', 'f2', 'f3']) {
      start(tracker, id);
      tracker.finish(id, 'done', id);
      kept.push(ids(tracker));
    }
    // Bound 2: the undelivered bg stays, and only the newest other finished task with it.
    expect(kept).toEqual([
      ['running', 'bg', 'f1'],
      ['running', 'bg', 'f2'],
      ['running', 'bg', 'f3'],
    ]);

    expect(tracker.takeUndelivered('s1').map((t) => t.taskId)).toEqual(['bg']);
    start(tracker, 'f4');
    tracker.finish('f4', 'done', 'f4');
    expect(ids(tracker)).toEqual(['running', 'f3', 'f4']);
    expect(tracker.get('bg')).toBeUndefined();
  });

  it('holds every undelivered result even beyond the bound of finished tasks (results waiting are bounded on their own)', () => {
    const tracker = new TaskTracker({ retainFinished: 1 });
    for (const id of ['b1', 'b2', 'b3']) {
      start(tracker, id, { background: true });
      tracker.finish(id, 'done', id);
    }
    expect(ids(tracker)).toEqual(['b1', 'b2', 'b3']);
    expect(tracker.takeUndelivered('s1')).toHaveLength(3);
    start(tracker, 'f1');
    tracker.finish('f1', 'done', 'f1');
    expect(ids(tracker)).toEqual(['f1']);
  });

  it('a task started again under its id (a resume) is running again and not evicted as finished', () => {
    const tracker = new TaskTracker({ retainFinished: 1 });
    start(tracker, 't1');
    tracker.finish('t1', 'done', 'first');
    start(tracker, 't1');
    start(tracker, 'f1');
    tracker.finish('f1', 'done', 'f1');
    start(tracker, 'f2');
    tracker.finish('f2', 'done', 'f2');
    expect(tracker.get('t1')).toMatchObject({ state: 'running' });
    expect(tracker.get('t1')!.result).toBeUndefined();
    expect(ids(tracker)).toEqual(['t1', 'f2']);
  });

  it('refuses to start a task id that is running, and changes nothing of the running one', () => {
    const tracker = new TaskTracker();
    const cancel = start(tracker, 't1');
    expect(() => start(tracker, 't1')).toThrow('task "t1" is still running; wait for its result before resuming it');
    expect(tracker.cancel('t1')).toBe(true);
    expect(cancel).toHaveBeenCalledTimes(1);
    start(tracker, 't1');
    expect(tracker.get('t1')!.state).toBe('running');
  });

  it('keeps an undelivered background result when the task is started again (resumed) before delivery', () => {
    const tracker = new TaskTracker();
    start(tracker, 'b1', { background: true });
    tracker.finish('b1', 'done', 'first result');
    start(tracker, 'b1', { background: true });
    tracker.finish('b1', 'done', 'second result');
    start(tracker, 'b1');
    tracker.finish('b1', 'done', 'a foreground resume: its caller has it');
    expect(tracker.takeUndelivered('s1').map((t) => t.result)).toEqual(['first result', 'second result']);
    expect(tracker.takeUndelivered('s1')).toEqual([]);
  });

  it('cancelAll({ backgroundOnly }) and close() wait for what they cancel; close refuses nothing else', async () => {
    const tracker = new TaskTracker();
    start(tracker, 'fg');
    start(tracker, 'bg', { background: true });
    expect(tracker.closed).toBe(false);
    await tracker.close();
    expect(tracker.closed).toBe(true);
    expect(tracker.list().map((t) => [t.taskId, t.state])).toEqual([
      ['fg', 'running'],
      ['bg', 'cancelled'],
    ]);
    await tracker.cancelAll();
    expect(tracker.get('fg')!.state).toBe('cancelled');
  });
});
