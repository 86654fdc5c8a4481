/**
 * A task resumed (a `task` call with `task_id`) and cut again before it answered: the store
 * recorded only the call that first started the task, and the history shows that task's
 * earlier result, so the repair named nothing and the model started the work anew. Now a
 * resume records its own call (the latest is the one that can be cut), and the task a cut
 * `task` call resumes is named although the history shows it; a server reusing a call id
 * for a new task still names no earlier task.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { INTERRUPTED_TOOL_RESULT } from '../../src/session/close-turn.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore, TaskSessionInfo } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskArgs } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

const KINDS = {
  memory: () => new MemorySessionStore(),
  file: () => new FileSessionStore(f.workspace.dir, { grantKey: 'interrupted-resumed-test-key' }),
} satisfies Record<string, () => SessionStore>;

const named = (taskId: string, description: string): string =>
  `${INTERRUPTED_TOOL_RESULT} The task ${taskId} (agent "alpha", "${description}") was interrupted; resume it with agent_name "alpha" and task_id "${taskId}".`;

const call = (id: string, args: object): ChatMessage => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'task', arguments: JSON.stringify(args) } }] });

/** Turn 1: call `call_a` started task_k1, whose result the history shows; turn 2: `second` was cut; the store holds `saved`. */
async function cutSecondTurn(store: SessionStore, second: ChatMessage, saved: TaskSessionInfo): Promise<void> {
  const result = `<task_result task_id="task_k1" agent="alpha" status="success">first part</task_result>`;
  await store.append('s1', [{ role: 'user', content: 'start' }, call('call_a', taskArgs('alpha', 'do work')), { role: 'tool', tool_call_id: 'call_a', content: result }, { role: 'assistant', content: 'done' }]);
  await store.append('s1', [{ role: 'user', content: 'again' }, second]);
  await store.saveTaskInfo!(saved);
  await store.append('task_k1', [{ role: 'user', content: 'do work' }]);
}

/** The result the main model read for `callId` on the next run of `s1`. */
async function repairedResult(store: SessionStore, callId: string): Promise<string> {
  f.route({ main: () => ({ text: 'ok' }) });
  await collect(f.engine({ sessions: store }, [testAgent('alpha')]).stream('what happened?', { sessionId: 's1' }));
  const sent = f.requestsOf('main').at(-1)!.body.messages!;
  return String(sent.findLast((m) => m.role === 'tool' && m.tool_call_id === callId)!.content);
}

const info = (callId: string, description: string): TaskSessionInfo => ({ taskId: 'task_k1', agentName: 'alpha', description, ownerSessionId: 's1', parentSessionId: 's1', callId });

describe.each(Object.keys(KINDS) as (keyof typeof KINDS)[])('a resumed task (%s store)', (kind) => {
  it('records the call that resumed it, and the label that call gave', async () => {
    f = await startDelegationFixture();
    const store = KINDS[kind]();
    const engine = f.engine({ sessions: store }, [testAgent('alpha')]);
    f.route({ main: steps(lifecycleTaskReply('alpha', 'start', {}, 'first')), alpha: () => ({ text: 'done' }) });
    const first = own(await collect(engine.stream('go', { sessionId: 's1' })), 'ToolCallEnd')[0]!;
    const { taskId } = parseTaskResult(first.text);
    f.route({ main: steps(lifecycleTaskReply('alpha', 'more', { task_id: taskId }, 'second')), alpha: () => ({ text: 'done again' }) });
    const second = own(await collect(engine.stream('go on', { sessionId: 's1' })), 'ToolCallEnd')[0]!;
    expect(parseTaskResult(second.text)).toMatchObject({ taskId, status: 'success' });
    expect(second.callId).not.toBe(first.callId);
    expect(await store.loadTaskInfo!(taskId)).toEqual({ taskId, agentName: 'alpha', description: 'second', ownerSessionId: 's1', parentSessionId: 's1', callId: second.callId });
    await engine.close();
  });

  it('cut again, is named by the repair although the history shows its earlier result', async () => {
    f = await startDelegationFixture();
    const store = KINDS[kind]();
    await cutSecondTurn(store, call('call_b', { ...taskArgs('alpha', 'finish'), task_id: 'task_k1' }), info('call_b', 'finish it'));
    expect(await repairedResult(store, 'call_b')).toBe(named('task_k1', 'finish it'));
  });

  it('a call id reused by a new task call names no earlier task (only the task a call resumes is named so)', async () => {
    f = await startDelegationFixture();
    const store = KINDS[kind]();
    // The server gave the new call the id of turn 1's call; task_k1's info still names that call.
    await cutSecondTurn(store, call('call_a', taskArgs('alpha', 'other work')), info('call_a', 'first'));
    expect(await repairedResult(store, 'call_a')).toBe(INTERRUPTED_TOOL_RESULT);
  });
});
