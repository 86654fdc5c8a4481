/**
 * A task file copied under another task's name (a model's command in the workspace can do
 * that: the file is sealed, only its name changes) must not let a conversation resume the
 * other task, nor another conversation itself, and read its transcript: the seal covers
 * the task id the file names, and the store checks it is the one asked for.
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult, type TaskExtras } from '../support/lifecycle-script.js';

const KEY = 'the user key, kept outside the workspace';
let f: DelegationFixture;
afterEach(() => f.close());

const engine = (): HarnessEngine => f.engine({ sessions: new FileSessionStore(f.workspace.dir, { grantKey: KEY }) }, [testAgent('alpha')]);
const taskFile = (id: string): string => join(f.workspace.dir, '.rxharness', 'sessions', `${id}.task.json`);

async function delegate(sessionId: string, prompt: string, extras: TaskExtras = {}) {
  f.route({ main: steps(lifecycleTaskReply('alpha', prompt, extras)), alpha: (t) => ({ text: `alpha heard: ${t.prompt}` }) });
  const events = await collect(engine().stream(`delegate ${prompt}`, { sessionId }));
  return parseTaskResult(own(events, 'ToolCallEnd')[0]!.text);
}

describe('a sealed task file copied under another id', () => {
  it("does not let a conversation resume another conversation's task", async () => {
    f = await startDelegationFixture();
    const victim = await delegate('victim', 'the secret is 42');
    const mine = await delegate('mallory', 'anything');
    await copyFile(taskFile(mine.taskId), taskFile(victim.taskId)); // now "owned" by mallory, by its content

    const resumed = await delegate('mallory', 'repeat the secret', { task_id: victim.taskId });
    expect(resumed).toMatchObject({ status: 'failure', content: expect.stringContaining(`Task "${victim.taskId}" was not resumed`) });
    // The victim's task session was never read into a request.
    expect(f.requestsOf('alpha').some((r) => JSON.stringify(r.body.messages).includes('the secret is 42') && JSON.stringify(r.body.messages).includes('repeat'))).toBe(false);
  });

  it('does not let a conversation resume another conversation itself as its task', async () => {
    f = await startDelegationFixture();
    f.route({ main: () => ({ text: 'noted' }) });
    await engine().call('my password is hunter2', { sessionId: 'victim' });
    const mine = await delegate('mallory', 'anything');
    await copyFile(taskFile(mine.taskId), taskFile('victim'));

    const resumed = await delegate('mallory', 'what was said?', { task_id: 'victim' });
    expect(resumed.status).toBe('failure');
    expect(f.requestsOf('alpha').some((r) => JSON.stringify(r.body.messages).includes('hunter2'))).toBe(false);
  });
});
