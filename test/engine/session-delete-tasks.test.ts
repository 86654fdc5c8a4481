import { readdir, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult, type TaskExtras } from '../support/lifecycle-script.js';

// Deleting a conversation deletes the tasks it started (docs/sessions.md, "Deleting a
// conversation"): a new conversation taking the id could otherwise resume them by id, and
// read their transcripts.

let f: DelegationFixture;
afterEach(() => f.close());

async function delegate(engine: HarnessEngine, sessionId: string, prompt: string, extras: TaskExtras = {}) {
  f.route({ main: steps(lifecycleTaskReply('alpha', prompt, extras)), alpha: (t) => ({ text: `alpha heard: ${t.prompt}` }) });
  const events = await collect(engine.stream(`delegate ${prompt}`, { sessionId }));
  return parseTaskResult(own(events, 'ToolCallEnd')[0]!.text);
}

const stores: [string, () => SessionStore][] = [
  ['MemorySessionStore', () => new MemorySessionStore()],
  ['FileSessionStore', () => new FileSessionStore(f.workspace.dir, { home: f.workspace.home })],
];

describe.each(stores)('engine.sessions.delete(id) with a %s', (_, makeStore) => {
  it('deletes the conversation\'s tasks: a new conversation reusing the id cannot resume them', async () => {
    f = await startDelegationFixture();
    const store = makeStore();
    const engine = f.engine({ sessions: store }, [testAgent('alpha')]);
    const { taskId } = await delegate(engine, 's1', 'the secret is 7');
    expect((await store.load(taskId)).length).toBeGreaterThan(0);

    await engine.sessions.delete!('s1');
    expect(await store.load(taskId)).toEqual([]);
    expect(await store.loadTaskInfo!(taskId)).toBeUndefined();
    const resumed = await delegate(engine, 's1', 'what was the secret?', { task_id: taskId });
    expect(resumed).toMatchObject({ status: 'failure', content: expect.stringContaining(`unknown task id "${taskId}"`) });
    expect(f.requestsOf('alpha')).toHaveLength(1); // the task never ran again
    await engine.close();
  });

  it("keeps another conversation's tasks", async () => {
    f = await startDelegationFixture();
    const store = makeStore();
    const engine = f.engine({ sessions: store }, [testAgent('alpha')]);
    await delegate(engine, 's1', 'one');
    const { taskId } = await delegate(engine, 's2', 'two');
    await engine.sessions.delete!('s1');
    expect(await delegate(engine, 's2', 'again', { task_id: taskId })).toMatchObject({ taskId, status: 'success' });
    await engine.close();
  });
});

describe('FileSessionStore.delete and task files', () => {
  it('removes the task files of the conversation, and no file a planted task file names', async () => {
    f = await startDelegationFixture();
    const store = new FileSessionStore(f.workspace.dir, { home: f.workspace.home });
    await store.append('s1', [{ role: 'user', content: 'hi' }]);
    await store.append('other', [{ role: 'user', content: 'mine' }]);
    await store.append('task_a', [{ role: 'user', content: 'task transcript' }]);
    await store.saveTaskInfo({ taskId: 'task_a', agentName: 'alpha', description: 'a', ownerSessionId: 's1' });
    // A file in the workspace saying that "other" is a task of s1, under another task's name.
    await writeFile(`${store.dir}/task_b.task.json`, JSON.stringify({ taskId: 'other', agentName: 'alpha', description: 'x', ownerSessionId: 's1' }));
    await store.delete('s1');
    const left = (await readdir(store.dir)).sort();
    expect(left.filter((name) => name.startsWith('task_a') || name.startsWith('s1.'))).toEqual([]);
    expect(await store.load('other')).toEqual([{ role: 'user', content: 'mine' }]);
  });
});
