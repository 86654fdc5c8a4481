import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply, settled } from '../support/lifecycle-script.js';

// Deleting a conversation stops its background tasks first (docs/sessions.md, "Deleting a
// conversation"): one finishing after the delete would write its transcript back under its
// task id, and hand its result to the deleted conversation.

let f: DelegationFixture;
afterEach(() => f.close());

const stores: [string, () => SessionStore][] = [
  ['MemorySessionStore', () => new MemorySessionStore()],
  ['FileSessionStore', () => new FileSessionStore(f.workspace.dir, { home: f.workspace.home })],
];

describe.each(stores)('engine.sessions.delete(id) while a background task of the conversation runs, with a %s', (_, makeStore) => {
  it('cancels the task and waits for it: nothing of the conversation or the task is stored after', async () => {
    const gate = createGate();
    f = await startDelegationFixture({
      main: steps(lifecycleTaskReply('alpha', 'slow job', { background: true }, 'bg job')),
      alpha: async (turn) => {
        await gate.promise;
        return { text: `alpha finished ${turn.prompt}` };
      },
    });
    const store = makeStore();
    const engine = f.engine({ sessions: store }, [testAgent('alpha')]);
    await engine.call('go', { sessionId: 's1' });
    while (f.requestsOf('alpha').length === 0) await f.server.waitForRequests(f.server.requests.length + 1);
    const request = f.requestsOf('alpha')[0]!;
    const [task] = engine.tasks.list('s1');
    expect(task).toMatchObject({ state: 'running', background: true });

    await engine.sessions.delete!('s1');
    gate.open(); // were the task still running, it would finish now and write its transcript
    expect(await settled(engine.tasks, task!.taskId)).toMatchObject({ state: 'cancelled' });
    expect((await f.server.waitForClosed(request.index)).aborted).toBe(true);
    expect(await store.load('s1')).toEqual([]);
    expect(await store.load(task!.taskId)).toEqual([]);
    expect(await store.loadTaskInfo!(task!.taskId)).toBeUndefined();
    expect(await store.list!()).toEqual([]);
    await engine.close();
  });
});
