import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
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

describe('resuming one task from two places at once', () => {
  it('runs it once: the other resume is a failure result saying it is running, and its session gets one exchange', async () => {
    f = await startDelegationFixture();
    const sessions = meetingStore(2);
    const taskId = 'task_shared';
    await sessions.saveTaskInfo({ taskId, agentName: 'alpha', description: 'earlier', ownerSessionId: 's1' });
    await sessions.append(taskId, [{ role: 'user', content: 'remember 7' }, { role: 'assistant', content: 'ok' }]);
    const gate = createGate();
    // One conversation runs one run at a time, so the race comes from two parallel children
    // of that run (depth 2), both resuming the task the conversation owns.
    f.route({
      main: steps(multitaskReply([[1, 'relay', 'resume it', 'one'], [2, 'relay', 'resume it', 'two']])),
      relay: steps(lifecycleTaskReply('alpha', 'which number?', { task_id: taskId })),
      alpha: async () => {
        await gate.promise;
        return { text: 'seven' };
      },
    });
    // A fresh engine (as after a restart): the task is known only to the store.
    const engine = f.engine({ sessions, maxDepth: 2 }, [testAgent('alpha'), testAgent('relay')]);
    const run = collect(engine.stream('go', { sessionId: 's1' }));
    await f.server.waitForRequests(4); // main, both relays, then the one child request
    gate.open();
    const events = await run;
    const resumes = events.flatMap((e) => (e.type === 'TaskWrap' && e.event.type === 'ToolCallEnd' ? [e.event] : []));
    const results = resumes.map((e) => parseTaskResult(e.text));

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
