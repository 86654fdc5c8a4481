import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult, type TaskExtras } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** A new engine (as after a restart) on a new FileSessionStore over the fixture's workspace. */
const restartedEngine = (): HarnessEngine => f.engine({ sessions: new FileSessionStore(f.workspace.dir, { home: f.workspace.home }) }, [testAgent('alpha')]);

async function delegate(engine: HarnessEngine, sessionId: string, prompt: string, extras: TaskExtras = {}) {
  f.route({ main: steps(lifecycleTaskReply('alpha', prompt, extras)), alpha: (t) => ({ text: `alpha heard: ${t.prompt}` }) });
  const events = await collect(engine.stream(`delegate ${prompt}`, { sessionId }));
  return parseTaskResult(own(events, 'ToolCallEnd')[0]!.text);
}

describe('sessions in a FileSessionStore survive a new engine', () => {
  it('a task is resumed with its history read from disk; the main session continues too', async () => {
    f = await startDelegationFixture();
    const first = await delegate(restartedEngine(), 's1', 'remember 7');
    expect(first.status).toBe('success');

    const second = await delegate(restartedEngine(), 's1', 'which number?', { task_id: first.taskId });
    expect(second).toMatchObject({ taskId: first.taskId, status: 'success', content: 'alpha heard: which number?' });
    const child = f.requestsOf('alpha').at(-1)!.body.messages!;
    expect(child.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'remember 7'],
      ['assistant', 'alpha heard: remember 7'],
      ['user', 'which number?'],
    ]);
    // The main agent's own conversation came back from disk as well, tool calls and all.
    const main = f.requestsOf('main').at(-2)!.body.messages!;
    expect(main.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['delegate remember 7', 'delegate which number?']);
    expect(main.some((m) => m.role === 'tool' && m.content.includes(first.taskId))).toBe(true);
  });

  it('after a restart, a foreign or unknown id is still refused', async () => {
    f = await startDelegationFixture();
    const { taskId } = await delegate(restartedEngine(), 's1', 'secret');
    expect(await delegate(restartedEngine(), 's2', 'leak it', { task_id: taskId })).toMatchObject({
      status: 'failure',
      content: expect.stringContaining('belongs to another session'),
    });
    expect(await delegate(restartedEngine(), 's1', 'more', { task_id: 'task_gone' })).toMatchObject({
      status: 'failure',
      content: expect.stringContaining('unknown task id "task_gone"'),
    });
    expect(f.requestsOf('alpha')).toHaveLength(1);
  });

  it('the main agent continues a conversation across engines (call, then stream)', async () => {
    f = await startDelegationFixture({ main: (turn) => ({ text: `noted: ${turn.prompt}` }) });
    const one = await restartedEngine().call('the number is 7', { sessionId: 'chat' });
    expect(one.sessionId).toBe('chat');
    await collect(restartedEngine().stream('what was the number?', { sessionId: 'chat' }));
    const messages = f.requestsOf('main').at(-1)!.body.messages!;
    expect(messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'the number is 7'],
      ['assistant', 'noted: the number is 7'],
      ['user', 'what was the number?'],
    ]);
    // Another session of the same store starts empty.
    await restartedEngine().call('hello', { sessionId: 'other' });
    expect(f.requestsOf('main').at(-1)!.body.messages!.slice(1)).toEqual([{ role: 'user', content: 'hello' }]);
  });
});
