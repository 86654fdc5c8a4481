/**
 * A task's stored info names the session that started it (`parentSessionId`): the
 * conversation for its own tasks, the delegating task for a task's. A store uses it to refuse
 * a start from a task of a deleted conversation (the Redis store, docs/scaling.md "Deleting a
 * conversation"), which the owner (always the conversation) cannot tell apart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskSessionInfo } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { wrappedMemoryStore } from '../support/wrapped-store.js';

let f: DelegationFixture;
afterEach(() => f.close());

describe("a task's info names the session that started it", () => {
  it('the conversation for its task, that task for the task it starts', async () => {
    f = await startDelegationFixture();
    const saved: TaskSessionInfo[] = [];
    const sessions = wrappedMemoryStore((memory) => ({
      saveTaskInfo: (info) => {
        saved.push(info);
        memory.saveTaskInfo(info);
      },
    }));
    f.route({ main: steps(taskReply('relay', 'ask deeper', 'child')), relay: steps(taskReply('alpha', 'dig', 'grandchild')), alpha: () => ({ text: 'dug' }) });
    const engine = f.engine({ sessions, maxDepth: 2 }, [testAgent('alpha'), testAgent('relay')]);
    await engine.call('go', { sessionId: 'ses_parent' });

    const child = saved.find((info) => info.description === 'child')!;
    const grandchild = saved.find((info) => info.description === 'grandchild')!;
    expect(child).toMatchObject({ ownerSessionId: 'ses_parent', parentSessionId: 'ses_parent' });
    expect(grandchild).toMatchObject({ ownerSessionId: 'ses_parent', parentSessionId: child.taskId });
  });
});
