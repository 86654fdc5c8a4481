import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { testAgent } from '../support/agent-turns.js';
import { backgroundScanServer, lastUserPrompt } from './support/background-scan.js';
import { settled } from '../support/lifecycle-script.js';

// Two engines on one FileSessionStore folder (two processes, in effect): a delete through one
// must keep the other's background results of the conversation from a new conversation of the id.
let server: FakeOpenAIServer | undefined;
const engines: HarnessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  await server?.close();
  server = undefined;
});

const startServer = (gate: Promise<void>): Promise<FakeOpenAIServer> => backgroundScanServer(gate, 'FINDINGS of the scan');

async function twoEngines(): Promise<[HarnessEngine, HarnessEngine]> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'rx-elsewhere-')));
  const key = new Uint8Array(32).fill(5);
  const make = (): HarnessEngine => {
    const engine = new HarnessEngine({ model: openAIModelFor(server!), workspace: dir, homeDir: dir, sessions: new FileSessionStore(dir, { grantKey: key, home: dir }) });
    engine.agents.add(testAgent('scanner'));
    engines.push(engine);
    return engine;
  };
  return [make(), make()];
}

const lastPrompt = (): string => lastUserPrompt(server!);

describe('a conversation deleted by another engine on the same store', () => {
  it('a task still running then writes nothing back, and its result never reaches a new conversation of the id', async () => {
    let open!: () => void;
    server = await startServer(new Promise<void>((r) => (open = r)));
    const [a, b] = await twoEngines();
    await a.call('Start the scan in the background', { sessionId: 'notes' });
    const [task] = a.tasks.list('notes');
    await b.sessions.delete!('notes');
    open();
    await settled(a.tasks, task!.taskId);
    // Its write after the delete was refused: no transcript comes back as a conversation of its own.
    expect((await b.sessions.list!()).map((s) => s.sessionId)).toEqual([]);
    await a.call('Hi, I am new here', { sessionId: 'notes' });
    expect(lastPrompt()).toBe('Hi, I am new here');
    expect((await b.sessions.list!()).map((s) => s.sessionId)).toEqual(['notes']);
  }, 60_000);

  it('a result already waiting when the other engine deleted the conversation is dropped', async () => {
    server = await startServer(Promise.resolve());
    const [a, b] = await twoEngines();
    await a.call('Start the scan in the background', { sessionId: 'notes' });
    await settled(a.tasks, a.tasks.list('notes')[0]!.taskId);
    await b.sessions.delete!('notes');
    await a.call('Hi, I am new here', { sessionId: 'notes' });
    expect(lastPrompt()).toBe('Hi, I am new here');
  }, 60_000);

  it('a conversation the other engine did not delete still gets its result', async () => {
    server = await startServer(Promise.resolve());
    const [a, b] = await twoEngines();
    await a.call('Start the scan in the background', { sessionId: 'notes' });
    await settled(a.tasks, a.tasks.list('notes')[0]!.taskId);
    await b.call('Hi', { sessionId: 'other' });
    await b.sessions.delete!('other');
    await a.call('Any news?', { sessionId: 'notes' });
    expect(lastPrompt()).toContain('FINDINGS of the scan');
  }, 60_000);

  it('one task session deleted on its own leaves the conversation and its other results', async () => {
    server = await startServer(Promise.resolve());
    const [a, b] = await twoEngines();
    await a.call('Start the scan in the background', { sessionId: 'notes' });
    await a.call('Start the scan in the background', { sessionId: 'notes' });
    const [first, second] = a.tasks.list('notes');
    await settled(a.tasks, first!.taskId);
    await settled(a.tasks, second!.taskId);
    await b.sessions.delete!(first!.taskId);
    await a.call('Any news?', { sessionId: 'notes' });
    expect(lastPrompt()).toContain(second!.taskId);
  }, 60_000);
});
