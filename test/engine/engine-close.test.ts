import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalHandler } from '../../src/permission/approval.js';
import { testAgent } from '../support/agent-turns.js';
import { own, record } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult, settled } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const background = lifecycleTaskReply('alpha', 'slow job', { background: true }, 'bg job');

describe('engine.close()', () => {
  it('stops a running background task (request aborted, state cancelled) and resolves once it settled', async () => {
    f = await startDelegationFixture({ main: steps(background), alpha: () => ({ hang: true }) });
    const engine = f.engine({}, [testAgent('alpha')]);
    await engine.call('go', { sessionId: 's1' });
    await f.server.waitForRequests(3);
    const alpha = f.requestsOf('alpha')[0]!;
    const [task] = engine.tasks.list();
    expect(task!.state).toBe('running');

    await engine.close();
    expect(engine.tasks.get(task!.taskId)).toMatchObject({ state: 'cancelled', result: expect.stringMatching(/cancelled/) });
    expect((await f.server.waitForClosed(alpha.index)).aborted).toBe(true);
    await engine.close(); // a second close is harmless
  });

  it('makes later stream and call fail with a clear error', async () => {
    f = await startDelegationFixture({ main: () => ({ text: 'hi' }) });
    const engine = f.engine();
    await engine.close();
    const message = /the engine is closed; create a new one to run again/;
    await expect(engine.call('hello')).rejects.toThrow(message);
    const run = record(engine.stream('hello'));
    await run.done;
    expect((run.error as Error).message).toMatch(message);
    expect(run.events).toEqual([]);
    expect(f.server.requests).toHaveLength(0);
  });

  it('makes the runs of engine.agent() and engine.agent(name) fail the same way, even for agents got before close', async () => {
    f = await startDelegationFixture({ main: () => ({ text: 'hi' }), alpha: () => ({ text: 'hi' }) });
    const engine = f.engine({}, [testAgent('alpha')]);
    const before = [engine.agent(), engine.agent('alpha')];
    await engine.close();
    const closed = { name: 'EngineClosedError', message: expect.stringMatching(/the engine is closed/) };
    for (const agent of [...before, engine.agent(), engine.agent('alpha'), engine.agent('nobody')]) {
      await expect(agent.call('hello')).rejects.toMatchObject(closed);
      const run = record(agent.stream('hello'));
      await run.done;
      expect(run.error).toMatchObject(closed);
      expect(run.events).toEqual([]);
    }
    expect(f.server.requests).toHaveLength(0);
  });

  it('refuses a background task asked for after close by a run still going: no child starts', async () => {
    const gate = createGate();
    f = await startDelegationFixture({
      main: async (turn) => {
        if (turn.step > 1) return { text: `final: ${turn.toolResults.at(-1)}` };
        await gate.promise;
        return background;
      },
      alpha: () => ({ text: 'should not run' }),
    });
    const engine = f.engine({}, [testAgent('alpha')]);
    const run = record(engine.stream('go', { sessionId: 's1' }));
    await f.server.waitForRequests(1);
    await engine.close();
    gate.open();
    await run.done;

    const result = parseTaskResult(own(run.events, 'ToolCallEnd')[0]!.text);
    expect(result).toMatchObject({ status: 'failure', content: expect.stringMatching(/^ERROR: .*engine is closed/) });
    expect(f.requestsOf('alpha')).toHaveLength(0);
    expect(engine.tasks.list().filter((t) => t.state === 'running')).toEqual([]);
  });
});

describe('a background task that delegates (maxDepth 2)', () => {
  it('keeps the approvals of its grandchildren fail-closed too', async () => {
    const approve = vi.fn<ApprovalHandler>(() => ({ decision: 'approve' }));
    f = await startDelegationFixture({
      main: steps(background),
      alpha: steps(taskReply('beta', 'run a command')),
      beta: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo hi' } }] }),
    });
    const engine = f.engine({ maxDepth: 2, approve }, [testAgent('alpha'), testAgent('beta')]);
    await engine.call('go', { sessionId: 's1' });
    const [task] = engine.tasks.list();
    const done = await settled(engine.tasks, task!.taskId);

    expect(approve).not.toHaveBeenCalled();
    expect(done.state).toBe('done');
    expect(done.result).toContain('rejected: a background task cannot ask for approval (fail-closed)');
    const grandchild = engine.tasks.list().find((t) => t.agentName === 'beta');
    expect(grandchild).toMatchObject({ state: 'done', sessionId: 's1' });
  });

  it('close() stops the background task and its running grandchild', async () => {
    f = await startDelegationFixture({
      main: steps(background),
      alpha: steps(taskReply('beta', 'wait forever')),
      beta: () => ({ hang: true }),
    });
    const engine = f.engine({ maxDepth: 2 }, [testAgent('alpha'), testAgent('beta')]);
    await engine.call('go', { sessionId: 's1' });
    await f.server.waitForRequests(4); // main x2, alpha, beta
    const beta = f.requestsOf('beta')[0]!;

    await engine.close();
    expect((await f.server.waitForClosed(beta.index)).aborted).toBe(true);
    expect(engine.tasks.list().map((t) => [t.agentName, t.state])).toEqual([
      ['alpha', 'cancelled'],
      ['beta', 'cancelled'],
    ]);
  });
});
