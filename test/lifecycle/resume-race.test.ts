import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult } from '../support/lifecycle-script.js';
import { wrappedMemoryStore } from '../support/wrapped-store.js';

let f: DelegationFixture;
afterEach(() => f.close());

/**
 * A memory store whose task lookups wait until `waiters` of them are pending: every resume is
 * then past its asynchronous checks before any of them starts, which is the race to close.
 */
function meetingStore(waiters: number): Required<SessionStore> {
  const pending: Array<() => void> = [];
  return wrappedMemoryStore((memory) => ({
    loadTaskInfo: async (taskId) => {
      await new Promise<void>((resolve) => {
        pending.push(resolve);
        if (pending.length === waiters) for (const go of pending.splice(0)) go();
      });
      return memory.loadTaskInfo(taskId);
    },
  }));
}

describe('resuming one task from two runs at once', () => {
  it('runs it once: the other resume is a failure result saying it is running, and its session gets one exchange', async () => {
    f = await startDelegationFixture();
    const sessions = meetingStore(2);
    const taskId = 'task_shared';
    await sessions.saveTaskInfo({ taskId, agentName: 'alpha', description: 'earlier', ownerSessionId: 's1' });
    await sessions.append(taskId, [{ role: 'user', content: 'remember 7' }, { role: 'assistant', content: 'ok' }]);
    const gate = createGate();
    f.route({
      main: steps(lifecycleTaskReply('alpha', 'which number?', { task_id: taskId })),
      alpha: async () => {
        await gate.promise;
        return { text: 'seven' };
      },
    });
    // A fresh engine (as after a restart): the task is known only to the store.
    const engine = f.engine({ sessions }, [testAgent('alpha')]);
    const runs = [collect(engine.stream('go', { sessionId: 's1' })), collect(engine.stream('go', { sessionId: 's1' }))];
    await f.server.waitForRequests(3); // both main requests, then the one child request
    gate.open();
    const results = (await Promise.all(runs)).map((events) => parseTaskResult(own(events, 'ToolCallEnd')[0]!.text));

    expect(results.map((r) => r.status).sort()).toEqual(['failure', 'success']);
    expect(results.find((r) => r.status === 'failure')).toEqual({
      taskId,
      agentName: 'alpha',
      status: 'failure',
      content: `ERROR: task "${taskId}" is still running; wait for its result before resuming it`,
    });
    expect(f.requestsOf('alpha')).toHaveLength(1);
    expect((await sessions.load(taskId)).map((m) => m.content)).toEqual(['remember 7', 'ok', 'which number?', 'seven']);
    expect(engine.tasks.get(taskId)).toMatchObject({ state: 'done', result: 'seven' });
  });
});
