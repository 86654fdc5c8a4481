import { describe, expect, it, vi } from 'vitest';
import { ApprovalGrants, MAX_GRANT_SESSIONS } from '../../src/agent/approval-grants.js';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import { DEFAULT_TASK_TRACKER_LIMITS } from '../../src/delegation/task-tracker-limits.js';
import { backgroundResults } from '../../src/engine/background-results.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { settled } from '../support/lifecycle-script.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

const offline = offlineEnginePerTest();

const MiB = 1024 * 1024;
const jsonSize = (events: readonly AgentEvent[]): number => events.reduce((sum, e) => sum + JSON.stringify(e).length, 0);

describe('"always" grants of 10,000 conversations', () => {
  it('keep at most MAX_GRANT_SESSIONS conversations in memory, the least recently used forgotten; a forgotten one reads its store again', () => {
    const grants = new ApprovalGrants();
    const store = new MemorySessionStore();
    for (let i = 0; i < 10_000; i++) {
      void grants.open(`s${i}`, store);
      grants.grant(`s${i}`, 'bash', `npm run job-${i} ${'x'.repeat(200)}`);
      // The first conversation stays in use all along: it is never the least recently used.
      expect(grants.has('s0', 'bash', `npm run job-0 ${'x'.repeat(200)}`)).toBe(true);
    }
    expect(grants.size.sessions).toBe(MAX_GRANT_SESSIONS);
    expect(grants.size.chars).toBeLessThan(MAX_GRANT_SESSIONS * 300);
    expect(grants.has('s9999', 'bash', `npm run job-9999 ${'x'.repeat(200)}`)).toBe(true);
    // Forgotten in memory: asked again, unless its store kept it (this one does).
    expect(grants.has('s1', 'bash', `npm run job-1 ${'x'.repeat(200)}`)).toBe(false);
    void grants.open('s1', store);
    expect(grants.has('s1', 'bash', `npm run job-1 ${'x'.repeat(200)}`)).toBe(true);
  });

  it('bound one conversation too: in count, and in characters however long the subjects', () => {
    const grants = new ApprovalGrants();
    const command = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 200; i++) grants.grant('s', 'bash', `${i} ${command}`);
    expect(grants.size.chars).toBeLessThanOrEqual(8 * MiB);
    expect(grants.has('s', 'bash', `199 ${command}`)).toBe(true);
    expect(grants.has('s', 'bash', `0 ${command}`)).toBe(false);
    for (let i = 0; i < 1_200; i++) grants.grant('short', 'read', `file-${i}`);
    expect(grants.has('short', 'read', 'file-1199')).toBe(true);
    expect(grants.has('short', 'read', 'file-199')).toBe(false); // past 1,000, the oldest went
  });
});

describe('background tasks with large deltas', () => {
  it('keep at most the byte budget of finished events, oldest dropped first, and no answer-text deltas once finished', async () => {
    const count = 40;
    const thinking = 't'.repeat(MiB);
    const text = 'a'.repeat(256 * 1024);
    const call = (i: number) => ({ name: 'task', args: { agent_name: 'alpha', prompt: `job ${i}`, description: `bg ${i}`, background: true } });
    const o = await offline(
      { main: scriptedSteps({ toolCalls: Array.from({ length: count }, (_, i) => call(i)) }, { text: 'started' }), alpha: () => ({ thinking, text, chunkSize: 16 * 1024 }) },
      [testAgent('alpha')],
    );
    await o.engine.call('go', { sessionId: 's' });
    const tasks = o.engine.tasks.list();
    expect(tasks).toHaveLength(count);
    for (const t of tasks) await settled(o.engine.tasks, t.taskId);
    const logs = tasks.map((t) => o.engine.tasks.events(t.taskId));
    const retained = logs.reduce((sum, log) => sum + jsonSize(log), 0);
    // 40 tasks of 1 MiB thinking and 256 KiB text (deltas, ReasonEnd, RunEnd): about 70 MiB without a bound.
    expect(retained).toBeLessThanOrEqual(DEFAULT_TASK_TRACKER_LIMITS.retainedBytes * 1.05);
    expect(logs[0]).toEqual([]); // the oldest went first
    const newest = logs.at(-1)!;
    expect(newest.some((e) => e.type === 'ReasonDelta' && e.kind === 'text')).toBe(false);
    expect(newest.find((e) => e.type === 'ReasonEnd')).toMatchObject({ text });
    expect(newest.filter((e) => e.type === 'ReasonDelta' && e.kind === 'thinking')).toHaveLength(MiB / (16 * 1024));
  });

  it('keep a running task\'s events bounded: past its budget, deltas are no longer kept and a Warning says so', () => {
    const tracker = new TaskTracker({ runningEventBytes: MiB });
    tracker.start({ taskId: 'bg', agentName: 'alpha', description: 'd', sessionId: 's', parentRunId: 'r', background: true }, () => undefined);
    const piece = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 1_000; i++) tracker.log('bg', { type: 'ReasonDelta', runId: 'c', agentName: 'alpha', step: 1, kind: 'text', text: piece });
    tracker.log('bg', { type: 'ReasonEnd', runId: 'c', agentName: 'alpha', step: 1, text: 'short', toolCalls: [], durationMs: 1 });
    const log = tracker.events('bg');
    expect(jsonSize(log)).toBeLessThan(MiB + 2 * piece.length);
    expect(log.filter((e) => e.type === 'Warning')).toEqual([expect.objectContaining({ code: 'task-events-cut' })]);
    expect(log.at(-1)).toMatchObject({ type: 'ReasonEnd' });
  });
});

describe('undelivered background results', () => {
  const finishMany = (tracker: TaskTracker, count: number, session: (i: number) => string, result: string): void => {
    for (let i = 0; i < count; i++) {
      const taskId = `t${i}`;
      tracker.start({ taskId, agentName: 'alpha', description: `job ${i}`, sessionId: session(i), parentRunId: 'r', background: true }, vi.fn());
      tracker.finish(taskId, 'done', result);
    }
  };

  it('are bounded in count for conversations that never come back, and the dropped ones are named at the next prompt', () => {
    const tracker = new TaskTracker();
    finishMany(tracker, 1_500, (i) => (i < 20 ? 'early' : `gone-${i}`), 'ok');
    const early = tracker.takeUndelivered('early');
    expect(early).toEqual([]); // the oldest were dropped
    const dropped = tracker.takeDropped('early');
    expect(dropped).toEqual({ count: 20, taskIds: ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9'] });
    expect(tracker.takeDropped('early')).toBeUndefined(); // said once
    expect(tracker.takeUndelivered('gone-1499')).toHaveLength(1);
    const waiting = Array.from({ length: 1_500 }, (_, i) => tracker.takeUndelivered(`gone-${i}`).length).reduce((a, b) => a + b, 0);
    expect(waiting).toBe(DEFAULT_TASK_TRACKER_LIMITS.undeliveredResults - 1);
    const block = backgroundResults(early, 1000, dropped);
    expect(block).toContain('(20 background task results were dropped unread because too many results were waiting: t0, t1, t2, t3, t4, t5, t6, t7, t8, t9 and others.');
  });

  it('are bounded in characters: large results push the oldest out', () => {
    const tracker = new TaskTracker();
    finishMany(tracker, 40, () => 's', 'r'.repeat(MiB));
    const results = tracker.takeUndelivered('s');
    expect(results.length).toBeLessThanOrEqual(16);
    expect(results.at(-1)!.taskId).toBe('t39');
    expect(tracker.takeDropped('s')?.count).toBe(40 - results.length);
  });
});
