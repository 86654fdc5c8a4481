/**
 * A background task cancelled by id settles at once, but its run closes its turn in its
 * session a little after. `engine.close()` and the delete of its conversation, called in
 * between, wait for that too (a1's review: close resolved with the session still held, and a
 * delete resolved before the closing write, which then brought the task's session back).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { whenReleased } from '../../src/agent/session-claims.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { createGate, type Gate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { storeHoldingWrites } from '../support/ending-run-store.js';
import { lifecycleTaskReply, parseTaskResult } from '../support/lifecycle-script.js';

let f: DelegationFixture;
const never = createGate(); // the child's model never answers: only the cancel ends it
afterEach(() => f.close());

/** Starts a background task in s1, cancels it by id with its closing write held; answers the gate that holds it. */
async function cancelledWhileClosing() {
  f = await startDelegationFixture();
  const held = storeHoldingWrites();
  f.route({ main: steps(lifecycleTaskReply('alpha', 'do work', { background: true })), alpha: async () => ((await never.promise), { text: 'x' }) });
  const engine = f.engine({ sessions: held.sessions }, [testAgent('alpha')]);
  const { taskId } = parseTaskResult(own(await collect(engine.stream('start bg', { sessionId: 's1' })), 'ToolCallEnd')[0]!.text);
  await f.server.waitForRequests(3); // main's two, alpha's one
  const gate: Gate = held.arm();
  expect(engine.tasks.cancel(taskId)).toBe(true);
  expect(engine.tasks.get(taskId)?.state).toBe('cancelled');
  return { engine, taskId, gate, sessions: held.sessions };
}

/** Lets every pending callback run (no timers: the held write is what keeps anything waiting). */
async function drain(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

describe('a stop right after a background task was cancelled by id', () => {
  it('engine.close() resolves only once the task gave its session up', async () => {
    const { engine, taskId, gate, sessions } = await cancelledWhileClosing();
    let closed = false;
    const closing = engine.close().then(() => (closed = true));
    await drain();
    expect(closed).toBe(false);
    gate.open();
    await closing;
    let released = false;
    void whenReleased(engine.sessions, taskId).then(() => (released = true));
    await drain();
    expect(released).toBe(true);
    expect((await sessions.load(taskId)).at(-1)).toMatchObject({ role: 'assistant', content: expect.stringContaining('the run was cancelled') });
  });

  it("the conversation's delete waits for the closing write, which then leaves no task session behind", async () => {
    const { engine, taskId, gate, sessions } = await cancelledWhileClosing();
    let deleted = false;
    const deleting = Promise.resolve(engine.sessions.delete!('s1')).then(() => (deleted = true));
    await drain();
    expect(deleted).toBe(false);
    gate.open();
    await deleting;
    await whenReleased(engine.sessions, taskId);
    expect(await sessions.load(taskId)).toEqual([]);
    expect(sessions.loadTaskInfo(taskId)).toBeUndefined();
    await engine.close();
  });
});
