/**
 * The Redis store's side of naming an interrupted `task` call's tasks (the memory and file
 * stores' are in test/session/interrupted-task-names.test.ts): the task record keeps the
 * parent's call id, `listTaskInfos` lists the conversation's own records only, and a record
 * without a call id (saved before it was kept) loads and names nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { INTERRUPTED_TOOL_RESULT } from '../../src/session/close-turn.js';
import type { SessionStore, TaskSessionInfo } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskArgs } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult } from '../support/lifecycle-script.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

let f: DelegationFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const info = (taskId: string, owner: string, callId?: string): TaskSessionInfo => ({
  taskId,
  agentName: 'alpha',
  description: 'scan',
  ownerSessionId: owner,
  parentSessionId: owner,
  ...(callId === undefined ? {} : { callId }),
});

/** What a process killed during conversation `conv`'s `task` call `call_k` leaves in `store`. */
async function killedDuring(store: SessionStore, conv: string, tasks: readonly TaskSessionInfo[]): Promise<void> {
  const call: ChatMessage = { role: 'assistant', content: null, tool_calls: [{ id: 'call_k', type: 'function', function: { name: 'task', arguments: JSON.stringify(taskArgs('alpha', 'scan')) } }] };
  await store.append(conv, [{ role: 'user', content: 'start' }, call]);
  for (const t of tasks) {
    await store.saveTaskInfo!(t);
    await store.append(t.taskId, [{ role: 'user', content: `prompt of ${t.taskId}` }]);
  }
}

/** The result the main model reads for `call_k` at the next prompt of `conv`. */
async function repairedResult(store: SessionStore, conv: string): Promise<string> {
  f!.route({ main: () => ({ text: 'ok' }) });
  await collect(f!.engine({ sessions: store }, [testAgent('alpha')]).stream('what happened?', { sessionId: conv }));
  return String(f!.requestsOf('main').at(-1)!.body.messages!.find((m) => m.role === 'tool')!.content);
}

describe.skipIf(!HAS_REDIS)('Redis sessions: an interrupted task call names its task', () => {
  const redisFile = redisBackendPerFile('interruptedtasknames', 60_000);

  it('names the conversation\'s task and resumes it by that id', async () => {
    f = await startDelegationFixture();
    const store = redisFile.backend.sessions;
    await killedDuring(store, 'c1', [info('task_r1', 'c1', 'call_k')]);
    expect(await repairedResult(store, 'c1')).toBe(
      `${INTERRUPTED_TOOL_RESULT} The task task_r1 (agent "alpha", "scan") was interrupted; resume it with agent_name "alpha" and task_id "task_r1".`,
    );
    f.route({ main: steps(lifecycleTaskReply('alpha', 'go on', { task_id: 'task_r1' })), alpha: (t) => ({ text: `alpha: ${t.prompt}` }) });
    const events = await collect(f.engine({ sessions: store }, [testAgent('alpha')]).stream('resume', { sessionId: 'c1' }));
    expect(parseTaskResult(own(events, 'ToolCallEnd')[0]!.text)).toMatchObject({ taskId: 'task_r1', status: 'success', content: 'alpha: go on' });
  });

  it("never names another conversation's task, even one put in this conversation's task set by hand", async () => {
    f = await startDelegationFixture();
    const { sessions: store, parts } = redisFile.backend;
    await store.append('c3', [{ role: 'user', content: 'other' }]);
    await killedDuring(store, 'c2', [info('task_r2', 'c3', 'call_k')]);
    await parts.redis.sadd(parts.keys.sessionTasks('c2'), 'task_r2');
    expect(await store.listTaskInfos('c2')).toEqual([]);
    expect(await repairedResult(store, 'c2')).toBe(INTERRUPTED_TOOL_RESULT);
  });

  it('a record without a call id (saved before it was kept) loads, and the result is the old one', async () => {
    f = await startDelegationFixture();
    const store = redisFile.backend.sessions;
    await killedDuring(store, 'c4', [info('task_r4', 'c4')]);
    expect(await store.loadTaskInfo('task_r4')).toEqual(info('task_r4', 'c4'));
    expect(await repairedResult(store, 'c4')).toBe(INTERRUPTED_TOOL_RESULT);
  });
});
