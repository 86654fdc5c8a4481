import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult, settled, type TaskExtras } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const AGENTS = [testAgent('alpha'), testAgent('beta')];

/** Runs the main agent through one `task` call and returns that call's ToolCallEnd. */
async function delegate(engine: HarnessEngine, sessionId: string, agent: string, prompt: string, extras: TaskExtras = {}) {
  f.route({ main: steps(lifecycleTaskReply(agent, prompt, extras)), alpha: (t) => ({ text: `alpha#${t.step}: ${t.prompt}` }), beta: steps() });
  const events = await collect(engine.stream('delegate', { sessionId }));
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
  return own(events, 'ToolCallEnd').find((e) => e.toolName === 'task')!;
}

describe('task with task_id (resume)', () => {
  it('continues the child session: the second request carries the first exchange, and the id stays', async () => {
    f = await startDelegationFixture();
    const engine = f.engine({}, AGENTS);
    const first = parseTaskResult((await delegate(engine, 's1', 'alpha', 'remember 7')).text);
    expect(first).toMatchObject({ status: 'success', content: 'alpha#1: remember 7' });

    const second = parseTaskResult((await delegate(engine, 's1', 'alpha', 'which number?', { task_id: first.taskId })).text);
    expect(second).toMatchObject({ taskId: first.taskId, status: 'success', content: 'alpha#1: which number?' });
    const resumed = f.requestsOf('alpha').at(-1)!.body.messages!;
    expect(resumed.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'remember 7'],
      ['assistant', 'alpha#1: remember 7'],
      ['user', 'which number?'],
    ]);
    expect(engine.tasks.list().map((t) => [t.taskId, t.state])).toEqual([[first.taskId, 'done']]);
  });

  describe('refusals: a failure result with a clear message, and no child request', () => {
    async function refused(engine: HarnessEngine, sessionId: string, agent: string, taskId: string) {
      const before = f.requestsOf(agent).length;
      const end = await delegate(engine, sessionId, agent, 'more', { task_id: taskId });
      expect(f.requestsOf(agent)).toHaveLength(before);
      const result = parseTaskResult(end.text);
      expect(result).toMatchObject({ taskId, status: 'failure' });
      expect(result.content).toMatch(/^ERROR: /);
      expect(end.error).toBe(result.content.slice('ERROR: '.length));
      return result.content;
    }

    it('a task started in another session', async () => {
      f = await startDelegationFixture();
      const engine = f.engine({}, AGENTS);
      const { taskId } = parseTaskResult((await delegate(engine, 's1', 'alpha', 'secret')).text);
      expect(await refused(engine, 's2', 'alpha', taskId)).toBe(
        `ERROR: task "${taskId}" belongs to another session and cannot be resumed from this one`,
      );
    });

    it('an unknown id', async () => {
      f = await startDelegationFixture();
      const engine = f.engine({}, AGENTS);
      expect(await refused(engine, 's1', 'alpha', 'task_nope')).toBe('ERROR: unknown task id "task_nope"; start a new task without task_id');
    });

    it('a different agent_name', async () => {
      f = await startDelegationFixture();
      const engine = f.engine({}, AGENTS);
      const { taskId } = parseTaskResult((await delegate(engine, 's1', 'alpha', 'first')).text);
      expect(await refused(engine, 's1', 'beta', taskId)).toBe(
        `ERROR: task "${taskId}" was run by agent "alpha"; resume it with agent_name "alpha"`,
      );
    });

    it('a task still running in the background', async () => {
      const gate = createGate();
      f = await startDelegationFixture();
      const engine = f.engine({}, AGENTS);
      f.route({
        main: steps(lifecycleTaskReply('alpha', 'slow', { background: true })),
        alpha: async () => {
          await gate.promise;
          return { text: 'slow done' };
        },
      });
      const started = own(await collect(engine.stream('go', { sessionId: 's1' })), 'ToolCallEnd')[0]!;
      const { taskId } = parseTaskResult(started.text);
      await f.server.waitForRequests(3);

      const end = await delegate(engine, 's1', 'alpha', 'more', { task_id: taskId });
      expect(parseTaskResult(end.text)).toMatchObject({
        taskId,
        status: 'failure',
        content: `ERROR: task "${taskId}" is still running; wait for its result before resuming it`,
      });
      expect(f.requestsOf('alpha')).toHaveLength(1);
      gate.open();
      expect((await settled(engine.tasks, taskId)).state).toBe('done');
    });
  });

  it('a finished background task can be resumed, in the foreground', async () => {
    f = await startDelegationFixture();
    const engine = f.engine({}, AGENTS);
    const { taskId } = parseTaskResult((await delegate(engine, 's1', 'alpha', 'start', { background: true })).text);
    await settled(engine.tasks, taskId);
    const end = await delegate(engine, 's1', 'alpha', 'continue', { task_id: taskId });
    expect(parseTaskResult(end.text)).toMatchObject({ taskId, status: 'success', content: 'alpha#1: continue' });
    expect(f.requestsOf('alpha').at(-1)!.body.messages!.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['start', 'continue']);
  });

  it('multitask children are resumable by their ids too', async () => {
    f = await startDelegationFixture();
    const engine = f.engine({}, AGENTS);
    f.route({
      main: steps({ toolCalls: [{ name: 'multitask', arguments: { tasks: [{ index: 1, agent_name: 'alpha', prompt: 'one', description: 'd' }] } }] }),
      alpha: (t) => ({ text: `alpha: ${t.prompt}` }),
    });
    const events = await collect(engine.stream('go', { sessionId: 's1' }));
    const { taskId } = parseTaskResult(own(events, 'ToolCallEnd')[0]!.text);
    const end = await delegate(engine, 's1', 'alpha', 'two', { task_id: taskId });
    expect(parseTaskResult(end.text)).toMatchObject({ taskId, status: 'success' });
  });
});
