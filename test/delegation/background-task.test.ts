import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalHandler } from '../../src/permission/approval.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, record, wraps } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult, settled } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const background = (prompt = 'slow job') => lifecycleTaskReply('alpha', prompt, { background: true }, 'bg job');

/** Main starts one background alpha; alpha answers only once `gate` opens. */
async function backgroundSetup() {
  const gate = createGate();
  f = await startDelegationFixture({
    main: steps(background()),
    alpha: async (turn) => {
      await gate.promise;
      return { text: `alpha finished ${turn.prompt}` };
    },
  });
  return { gate, engine: f.engine({}, [testAgent('alpha')]) };
}

/** The index at the server of alpha's first request, once it has arrived. */
async function alphaRequest(): Promise<number> {
  while (f.requestsOf('alpha').length === 0) await f.server.waitForRequests(f.server.requests.length + 1);
  return f.requestsOf('alpha')[0]!.index;
}

describe('task with background: true', () => {
  it('returns running with the task id at once; the parent ends first, without the child\'s events', async () => {
    const { gate, engine } = await backgroundSetup();
    const events = await collect(engine.stream('go', { sessionId: 's1' }));

    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
    const end = own(events, 'ToolCallEnd')[0]!;
    const result = parseTaskResult(end.text);
    expect(result).toMatchObject({ agentName: 'alpha', status: 'running', taskId: expect.stringMatching(/^task_/) });
    expect(result.content).toContain(result.taskId);
    expect(end.error).toBeUndefined();
    expect(wraps(events)).toEqual([]);
    expect(events.some((e) => e.agentName === 'alpha')).toBe(false);
    expect(own(events, 'RunEnd')[0]!.metrics.tasks).toBe(1);

    // The child is still running, its request open at the server.
    const index = await alphaRequest();
    expect(f.server.requests[index]!.endedAt).toBeUndefined();
    expect(engine.tasks.get(result.taskId)).toMatchObject({ state: 'running', background: true, sessionId: 's1' });

    gate.open();
    expect(await settled(engine.tasks, result.taskId)).toMatchObject({ state: 'done', result: 'alpha finished slow job' });
    expect(await f.server.waitForClosed(index)).toMatchObject({ aborted: false, completed: true });
  });

  it('survives the parent being unsubscribed mid-run', async () => {
    const gate = createGate();
    f = await startDelegationFixture({
      main: (turn) => (turn.step === 1 ? background() : { hang: true }),
      alpha: async () => {
        await gate.promise;
        return { text: 'still here' };
      },
    });
    const engine = f.engine({}, [testAgent('alpha')]);
    const run = record(engine.stream('go'));
    await f.server.waitForRequests(3); // main step 1, alpha, main step 2 (hanging)
    const mainSecond = f.requestsOf('main')[1]!;
    const alpha = f.requestsOf('alpha')[0]!;
    run.subscription.unsubscribe();

    expect((await f.server.waitForClosed(mainSecond.index)).aborted).toBe(true);
    const [task] = engine.tasks.list();
    expect(task!.state).toBe('running');
    gate.open();
    expect(await settled(engine.tasks, task!.taskId)).toMatchObject({ state: 'done', result: 'still here' });
    expect((await f.server.waitForClosed(alpha.index)).aborted).toBe(false);
  });

  it('rejects its approvals without asking the handler (fail-closed); a foreground task does ask', async () => {
    const approve = vi.fn<ApprovalHandler>(() => ({ decision: 'approve' }));
    const bash = { toolCalls: [{ name: 'bash', arguments: { command: 'echo hi > marker.txt' } }] };
    f = await startDelegationFixture({ main: steps(background()), alpha: steps(bash) });
    const engine = f.engine({ approve }, [testAgent('alpha')]);
    await engine.call('go', { sessionId: 's1' });
    const [task] = engine.tasks.list();
    const done = await settled(engine.tasks, task!.taskId);

    expect(approve).not.toHaveBeenCalled();
    expect(existsSync(join(f.workspace.dir, 'marker.txt'))).toBe(false);
    expect(done.state).toBe('done');
    expect(done.result).toMatch(/^final: ERROR: The bash call was rejected: a background task cannot ask for approval \(fail-closed\)/);
    const log = engine.tasks.events(task!.taskId);
    expect(log.find((e) => e.type === 'HITLDecided')).toMatchObject({ toolName: 'bash', decision: 'reject' });
    expect(log.find((e) => e.type === 'ToolCallEnd')).toMatchObject({ toolName: 'bash', error: expect.stringContaining('rejected') });

    // The same call from a foreground task reaches the handler, which approves it.
    f.route({ main: steps(taskReply('alpha', 'again')), alpha: steps(bash) });
    await engine.call('go');
    expect(approve).toHaveBeenCalledTimes(1);
    expect(approve.mock.calls[0]![0]).toMatchObject({ toolName: 'bash', agentName: 'alpha' });
    expect(existsSync(join(f.workspace.dir, 'marker.txt'))).toBe(true);
  });

  it('is tracked: get, list, events and changes show running, then done with the result', async () => {
    const { gate, engine } = await backgroundSetup();
    const changes: TaskInfo[] = [];
    const watching = engine.tasks.changes.subscribe((t) => changes.push(t));
    await engine.call('go', { sessionId: 's1' });
    const [task] = engine.tasks.list('s1');
    expect(task).toMatchObject({ agentName: 'alpha', description: 'bg job', state: 'running', background: true });
    expect(engine.tasks.list('another session')).toEqual([]);
    await alphaRequest();
    expect(engine.tasks.events(task!.taskId).map((e) => e.type)).toContain('RunStart');

    gate.open();
    await settled(engine.tasks, task!.taskId);
    watching.unsubscribe();
    expect(changes.map((t) => [t.taskId, t.state])).toEqual([
      [task!.taskId, 'running'],
      [task!.taskId, 'done'],
    ]);
    const done = engine.tasks.get(task!.taskId)!;
    expect(done).toMatchObject({ state: 'done', result: 'alpha finished slow job' });
    expect(done.endedAt).toBeGreaterThanOrEqual(done.startedAt);
    expect(done.metrics?.totalTokens).toBeGreaterThan(0);
    const log = engine.tasks.events(task!.taskId);
    expect(log[0]).toMatchObject({ type: 'RunStart', agentName: 'alpha', sessionId: task!.taskId });
    expect(log.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'alpha', text: 'alpha finished slow job' });
    expect(log.some((e) => e.type === 'TaskWrap')).toBe(false);
  });

  it('puts its result in front of the next prompt of the same session exactly once', async () => {
    const { gate, engine } = await backgroundSetup();
    await engine.call('go', { sessionId: 's1' });
    const [task] = engine.tasks.list();
    gate.open();
    await settled(engine.tasks, task!.taskId);

    f.route({ main: () => ({ text: 'ok' }) });
    const lastUser = (i: number): string => {
      const messages = f.requestsOf('main')[i]!.body.messages!;
      return String(messages.findLast((m) => m.role === 'user')!.content);
    };
    const before = f.requestsOf('main').length;
    await engine.call('other conversation', { sessionId: 's2' });
    await engine.call('next', { sessionId: 's1' });
    await collect(engine.stream('after that', { sessionId: 's1' }));

    expect(lastUser(before)).toBe('other conversation');
    const injected = lastUser(before + 1);
    expect(injected.startsWith('<background_task_results>\n<task_result>')).toBe(true);
    expect(injected.endsWith('</background_task_results>\n\nnext')).toBe(true);
    expect(parseTaskResult(injected)).toMatchObject({ taskId: task!.taskId, status: 'success', content: 'alpha finished slow job' });
    expect(lastUser(before + 2)).toBe('after that');
  });

  it('keeps its result for a valid prompt: an empty one is refused and uses nothing up', async () => {
    const { gate, engine } = await backgroundSetup();
    await engine.call('go', { sessionId: 's1' });
    const [task] = engine.tasks.list();
    gate.open();
    await settled(engine.tasks, task!.taskId);

    await expect(engine.call('  ', { sessionId: 's1' })).rejects.toThrow(/The prompt must be a non-empty string/);
    f.route({ main: () => ({ text: 'ok' }) });
    await engine.call('next', { sessionId: 's1' });
    const user = String(f.requestsOf('main').at(-1)!.body.messages!.findLast((m) => m.role === 'user')!.content);
    expect(parseTaskResult(user).taskId).toBe(task!.taskId);
  });

  it('is stopped by engine.cancelTask: its request aborted, and the next prompt gets a failure result', async () => {
    const { engine } = await backgroundSetup();
    await engine.call('go', { sessionId: 's1' });
    const index = await alphaRequest();
    const [task] = engine.tasks.list();

    expect(engine.cancelTask(task!.taskId)).toBe(true);
    expect(engine.tasks.get(task!.taskId)).toMatchObject({ state: 'cancelled', result: expect.stringMatching(/^ERROR: .*cancelled/) });
    expect((await f.server.waitForClosed(index)).aborted).toBe(true);

    f.route({ main: () => ({ text: 'ok' }) });
    await engine.call('next', { sessionId: 's1' });
    const user = String(f.requestsOf('main').at(-1)!.body.messages!.findLast((m) => m.role === 'user')!.content);
    expect(parseTaskResult(user)).toMatchObject({ taskId: task!.taskId, status: 'failure', content: expect.stringMatching(/^ERROR: .*cancelled/) });
  });
});
