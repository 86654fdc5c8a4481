/**
 * A foreground `task` cut before it answered (its process killed) was repaired on the next load
 * as "ERROR: no result; the run was interrupted..." with no task id: the child's session was on
 * disk, but nobody could learn its id, so the only way on was a fresh task repeating its side
 * effects. Now the store records the parent's call id with the task, and the repaired result
 * names the task(s) that call started, for the conversation's own tasks only.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { INTERRUPTED_TOOL_RESULT } from '../../src/session/close-turn.js';
import type { SessionStore, TaskSessionInfo } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskArgs, steps, taskArgs } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const KINDS = {
  memory: () => new MemorySessionStore(),
  file: () => new FileSessionStore(f.workspace.dir, { grantKey: 'interrupted-task-test-key' }),
} satisfies Record<string, () => SessionStore>;

const info = (taskId: string, callId: string | undefined, owner = 's1', description = `work of ${taskId}`): TaskSessionInfo => ({
  taskId,
  agentName: 'alpha',
  description,
  ownerSessionId: owner,
  parentSessionId: owner,
  ...(callId === undefined ? {} : { callId }),
});

/** What a process killed during a delegating call leaves: the call saved, no result; the child's prompt and task info. */
async function killedDuring(store: SessionStore, name: 'task' | 'multitask', args: object, tasks: readonly TaskSessionInfo[]): Promise<void> {
  const call: ChatMessage = { role: 'assistant', content: null, tool_calls: [{ id: 'call_k', type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
  await store.append('s1', [{ role: 'user', content: 'start' }, call]);
  for (const t of tasks) {
    await store.saveTaskInfo!(t);
    await store.append(t.taskId, [{ role: 'user', content: `prompt of ${t.taskId}` }]);
  }
}

/** The next prompt of `s1` on a new engine over `store`: the result the main model read for the cut call. */
async function repairedResult(store: SessionStore): Promise<string> {
  f.route({ main: () => ({ text: 'ok' }) });
  await collect(f.engine({ sessions: store }, [testAgent('alpha')]).stream('what happened?', { sessionId: 's1' }));
  const sent = f.requestsOf('main').at(-1)!.body.messages!;
  return String(sent.find((m) => m.role === 'tool' && m.tool_call_id === 'call_k')!.content);
}

describe.each(Object.keys(KINDS) as (keyof typeof KINDS)[])('an interrupted delegating call names its tasks (%s store)', (kind) => {
  it('task: the repaired result names the id, and a task call with that task_id resumes the child', async () => {
    f = await startDelegationFixture();
    const store = KINDS[kind]();
    await killedDuring(store, 'task', taskArgs('alpha', 'do work'), [info('task_k1', 'call_k', 's1', 'scan the repo')]);
    const named = `${INTERRUPTED_TOOL_RESULT} The task task_k1 (agent "alpha", "scan the repo") was interrupted; resume it with agent_name "alpha" and task_id "task_k1".`;
    expect(await repairedResult(store)).toBe(named);
    // Saved as it was sent, once: later loads read the same bytes (the prompt prefix stays stable).
    expect((await store.load('s1')).filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([named]);

    f.route({ main: steps(lifecycleTaskReply('alpha', 'go on', { task_id: 'task_k1' })), alpha: (t) => ({ text: `alpha: ${t.prompt}` }) });
    const events = await collect(f.engine({ sessions: store }, [testAgent('alpha')]).stream('resume it', { sessionId: 's1' }));
    expect(parseTaskResult(own(events, 'ToolCallEnd')[0]!.text)).toMatchObject({ taskId: 'task_k1', status: 'success', content: 'alpha: go on' });
    const child = f.requestsOf('alpha').at(-1)!.body.messages!;
    expect(child.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['prompt of task_k1', 'go on']);
  });

  it('multitask: the repaired result lists each child with its id', async () => {
    f = await startDelegationFixture();
    const store = KINDS[kind]();
    const args = multitaskArgs([[1, 'alpha', 'a', 'first'], [2, 'alpha', 'b', 'second']]);
    await killedDuring(store, 'multitask', args, [info('task_m2', 'call_k', 's1', 'second'), info('task_m1', 'call_k', 's1', 'first')]);
    expect(await repairedResult(store)).toBe(
      `${INTERRUPTED_TOOL_RESULT} Its 2 tasks were interrupted; resume each with its agent_name and task_id: task_m1 (agent "alpha", "first"); task_m2 (agent "alpha", "second").`,
    );
  });

  it("another conversation's task under the same call id is never named", async () => {
    f = await startDelegationFixture();
    const store = KINDS[kind]();
    await store.append('s2', [{ role: 'user', content: 'other' }, { role: 'assistant', content: 'fine' }]);
    // Even naming s1 as the session that started it: only the owner decides whose task it is.
    await killedDuring(store, 'task', taskArgs('alpha', 'do work'), [{ ...info('task_other', 'call_k', 's2'), parentSessionId: 's1' }]);
    expect(await store.listTaskInfos!('s1')).toEqual([]);
    expect(await repairedResult(store)).toBe(INTERRUPTED_TOOL_RESULT);
  });

  it('a task info saved without a call id (as before it was kept) loads, resumes, and the result is the old one', async () => {
    f = await startDelegationFixture();
    const store = KINDS[kind]();
    await killedDuring(store, 'task', taskArgs('alpha', 'do work'), [info('task_old', undefined)]);
    expect(await repairedResult(store)).toBe(INTERRUPTED_TOOL_RESULT);
    expect(await store.loadTaskInfo!('task_old')).toEqual(info('task_old', undefined));
  });

  it('a task started in a run records the call that started it', async () => {
    f = await startDelegationFixture();
    const store = KINDS[kind]();
    f.route({ main: steps(lifecycleTaskReply('alpha', 'hi', {})), alpha: () => ({ text: 'done' }) });
    const events = await collect(f.engine({ sessions: store }, [testAgent('alpha')]).stream('delegate', { sessionId: 's1' }));
    const end = own(events, 'ToolCallEnd')[0]!;
    const { taskId } = parseTaskResult(end.text);
    expect((await store.loadTaskInfo!(taskId))?.callId).toBe(end.callId);
    expect((await store.listTaskInfos!('s1')).map((t) => [t.taskId, t.callId])).toEqual([[taskId, end.callId]]);
  });
});

describe('a task file whose call id was changed after its seal', () => {
  it('is not listed, so no repair names it', async () => {
    f = await startDelegationFixture();
    const store = KINDS.file();
    await killedDuring(store, 'task', taskArgs('alpha', 'do work'), [info('task_k1', 'call_elsewhere')]);
    const file = join(store.dir, 'task_k1.task.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('call_elsewhere', 'call_k'));
    expect(await store.listTaskInfos('s1')).toEqual([]);
    expect(await repairedResult(store)).toBe(INTERRUPTED_TOOL_RESULT);
  });
});
