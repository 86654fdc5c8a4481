/**
 * The planted FIFO seen from a run: continuing a session (`rxharness run --session`) and
 * resuming a delegated task whose files were swapped for FIFOs end at once, through the real
 * client and the fake server, saying which file is a FIFO; nothing is sent for the session.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { lifecycleTaskReply, parseTaskResult, type TaskExtras } from '../support/lifecycle-script.js';
import { cliSandbox, type CliSandbox } from '../cli/cli-sandbox.js';
import { plantFifo, promptly, releaseFifos } from './planted-fifo-kit.js';

let sandbox: CliSandbox | undefined;
let server: FakeOpenAIServer | undefined;
let f: DelegationFixture | undefined;
afterEach(async () => {
  await releaseFifos();
  await server?.close();
  await sandbox?.cleanup();
  await f?.close();
  sandbox = server = f = undefined;
});

describe('rxharness run --session NAME where .rxharness/sessions/NAME.jsonl is a FIFO', () => {
  it('fails at once naming the FIFO and what to do; nothing is sent', async () => {
    sandbox = await cliSandbox();
    server = await FakeOpenAIServer.start({ handler: () => ({ text: 'done' }) });
    const fifo = await plantFifo(join(sandbox.workspace.dir, '.rxharness', 'sessions', 'notes.jsonl'));
    const cli = sandbox.io({ OPENAI_API_KEY: 'test-key' });
    const exit = main(['run', '--session', 'notes', '--model', 'm', '--base-url', server.baseURL, 'summarize the README'], cli);
    expect(await promptly(exit, 'rxharness run --session notes')).toBe(1);
    expect(server.requests).toHaveLength(0);
    expect(cli.stderrText() + cli.stdoutText()).toContain(`Refusing to use ${fifo}: it is a FIFO (named pipe), not a regular file.`);
    expect(cli.stderrText() + cli.stdoutText()).toContain(`remove it (rm '${fifo}')`);
  });
});

describe('resuming a task whose task file was swapped for a FIFO', () => {
  const KEY = 'test grant key';
  const engine = (): HarnessEngine => f!.engine({ sessions: new FileSessionStore(f!.workspace.dir, { grantKey: KEY }) }, [testAgent('alpha')]);

  async function delegate(prompt: string, extras: TaskExtras = {}) {
    f!.route({ main: steps(lifecycleTaskReply('alpha', prompt, extras)), alpha: (t) => ({ text: `alpha heard: ${t.prompt}` }) });
    const events = await promptly(collect(engine().stream(`delegate ${prompt}`, { sessionId: 's1' })), `delegate ${prompt}`);
    return parseTaskResult(own(events, 'ToolCallEnd')[0]!.text);
  }

  it('fails the task call at once, naming the FIFO; the task is not run again', async () => {
    f = await startDelegationFixture();
    const first = await delegate('remember 7');
    expect(first.status).toBe('success');
    const fifo = await plantFifo(join(f.workspace.dir, '.rxharness', 'sessions', `${first.taskId}.task.json`));
    const second = await delegate('which number?', { task_id: first.taskId });
    expect(second.status).toBe('failure');
    expect(second.content).toContain(`Refusing to use ${fifo}: it is a FIFO`);
    expect(f.requestsOf('alpha')).toHaveLength(1);
  });
});
