/**
 * A background task's result is promised to its conversation's next prompt ("Its result will
 * be put in front of your next prompt"). It waited only in the engine's memory: an engine
 * closed, or a process killed, before that prompt lost it, and a new engine on the same
 * `FileSessionStore` said nothing. Now the new engine's first prompt of the conversation tells
 * each such task once: its answer when its session holds one, else that it was interrupted
 * and how to resume it.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { RESULTS_BLOCK_OPEN } from '../../src/session/compaction/results-block.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult, settled } from '../support/lifecycle-script.js';
import { killedMidTask } from './killed-mid-task.js';

const CHILD = fileURLToPath(new URL('./lost-background-process.ts', import.meta.url));

let f: DelegationFixture;
afterEach(() => f.close());

/** An engine on the fixture's sessions folder, as a restarted process would build it. */
function engineOnFolder(): HarnessEngine {
  return f.engine({ sessions: new FileSessionStore(f.workspace.dir, { home: f.home }) }, [testAgent('alpha')]);
}

/** Sends `prompt` to `s1` and answers the main model's request with 'ok'; the user message the model read. */
async function nextPrompt(engine: HarnessEngine, prompt: string): Promise<string> {
  f.route({ main: () => ({ text: 'ok' }) });
  await collect(engine.stream(prompt, { sessionId: 's1' }));
  return String(f.requestsOf('main').at(-1)!.body.messages!.at(-1)!.content);
}

/** Starts a background task of `alpha` in `s1` on `engine`; its id. */
async function startBackground(engine: HarnessEngine): Promise<string> {
  const events = await collect(engine.stream('start bg', { sessionId: 's1' }));
  return parseTaskResult(own(events, 'ToolCallEnd')[0]!.text).taskId;
}

/** After a restart, the next prompt must carry nothing again: the block told it once. */
async function expectToldOnce(engine: HarnessEngine): Promise<void> {
  expect(await nextPrompt(engine, 'and now?')).toBe('and now?');
  await engine.close();
  const third = engineOnFolder();
  expect(await nextPrompt(third, 'after another restart?')).toBe('after another restart?');
  await third.close();
}

describe('background results across an engine restart', () => {
  it('a finished task whose result waited when its engine closed: the next engine delivers its answer once', async () => {
    f = await startDelegationFixture();
    f.route({ main: steps(lifecycleTaskReply('alpha', 'count TODOs', { background: true })), alpha: () => ({ text: '3 TODOs' }) });
    const first = engineOnFolder();
    const taskId = await startBackground(first);
    expect((await settled(first.tasks, taskId)).state).toBe('done');
    await first.close();

    const second = engineOnFolder();
    const told = await nextPrompt(second, 'anything new?');
    expect(told.startsWith(`${RESULTS_BLOCK_OPEN}\n`)).toBe(true);
    expect(parseTaskResult(told)).toMatchObject({ taskId, agentName: 'alpha', status: 'success', content: '3 TODOs' });
    expect(told.endsWith('\n\nanything new?')).toBe(true);
    await expectToldOnce(second);
  });

  it('a task cancelled by engine.close(): the next engine says it was interrupted, with its id to resume', async () => {
    f = await startDelegationFixture();
    const hang = createGate();
    f.route({ main: steps(lifecycleTaskReply('alpha', 'do work', { background: true })), alpha: async () => (await hang.promise, { text: 'never' }) });
    const first = engineOnFolder();
    const taskId = await startBackground(first);
    await f.server.waitForRequests(3); // main twice, then alpha, which hangs
    await first.close();
    hang.open();

    const second = engineOnFolder();
    const told = parseTaskResult(await nextPrompt(second, 'anything new?'));
    expect(told).toMatchObject({ taskId, status: 'failure' });
    expect(told.content).toBe(`ERROR: interrupted: the engine stopped before it finished; resume it with task_id ${taskId}`);
    await expectToldOnce(second);
  });

  it('a process killed (SIGKILL) mid-task: the next engine says it was interrupted, once', async () => {
    f = await startDelegationFixture();
    await killedMidTask(f, CHILD, steps(lifecycleTaskReply('alpha', 'do work', { background: true })));
    const started = String(f.requestsOf('main').find((r) => r.body.messages!.at(-1)!.role === 'tool')!.body.messages!.at(-1)!.content);
    const { taskId } = parseTaskResult(started);

    const second = engineOnFolder();
    const told = parseTaskResult(await nextPrompt(second, 'anything new?'));
    expect(told).toMatchObject({ taskId, agentName: 'alpha', status: 'failure' });
    expect(told.content).toContain(`interrupted: the engine stopped before it finished; resume it with task_id ${taskId}`);
    await expectToldOnce(second);
  }, 90_000);

  it('a conversation without background tasks sends the same prompts after a restart (nothing put in front)', async () => {
    f = await startDelegationFixture();
    f.route({ main: steps(taskReply('alpha', 'count TODOs')), alpha: () => ({ text: '3 TODOs' }) });
    const first = engineOnFolder();
    await collect(first.stream('count in the foreground', { sessionId: 's1' }));
    const before = f.requestsOf('main').at(-1)!.body.messages!;
    await first.close();

    const second = engineOnFolder();
    expect(await nextPrompt(second, 'and now?')).toBe('and now?');
    const after = f.requestsOf('main').at(-1)!.body.messages!;
    // The cached prefix: every message sent before, byte for byte, then the answer and the new prompt.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(after.at(-1)).toEqual({ role: 'user', content: 'and now?' });
    await second.close();
  });
});
