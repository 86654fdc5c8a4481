/**
 * Resuming a delegated task whose task file went bad (emptied, cut, corrupted since the store
 * wrote it whole) tells the model which file it is and what to do, instead of calling the task
 * unknown, and runs nothing of the task; the file is left as it is.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

/** A new engine (as after a restart) on a new store over the fixture's workspace. */
const engine = (): HarnessEngine => f.engine({ sessions: new FileSessionStore(f.workspace.dir, { grantKey: 'the user key' }) }, [testAgent('alpha')]);
const taskFile = (id: string): string => join(f.workspace.dir, '.rxharness', 'sessions', `${id}.task.json`);

async function delegate(sessionId: string, prompt: string, extras: TaskExtras = {}) {
  f.route({ main: steps(lifecycleTaskReply('alpha', prompt, extras)), alpha: (t) => ({ text: `alpha heard: ${t.prompt}` }) });
  const events = await collect(engine().stream(`delegate ${prompt}`, { sessionId }));
  return parseTaskResult(own(events, 'ToolCallEnd')[0]!.text);
}

describe('resuming a task whose task file was cut', () => {
  it('fails naming the file and saying what to do, runs nothing, and leaves the file', async () => {
    f = await startDelegationFixture();
    const first = await delegate('notes', 'remember 7');
    expect(first.status).toBe('success');
    const file = taskFile(first.taskId);
    const cut = (await readFile(file, 'utf8')).slice(0, 20);
    await writeFile(file, cut);

    const resumed = await delegate('notes', 'which number?', { task_id: first.taskId });
    expect(resumed.status).toBe('failure');
    expect(resumed.content).toContain(`Task "${first.taskId}" was not resumed`);
    expect(resumed.content).toContain(file);
    expect(resumed.content).toContain('Start the task anew');
    expect(resumed.content).not.toContain('unknown task');
    expect(f.requestsOf('alpha')).toHaveLength(1); // only the first run
    expect(await readFile(file, 'utf8')).toBe(cut);
  });
});
