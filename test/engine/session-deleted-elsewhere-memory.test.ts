import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { testAgent } from '../support/agent-turns.js';
import { backgroundScanServer, lastUserPrompt } from './support/background-scan.js';
import { settled } from '../support/lifecycle-script.js';

// Two engines on one MemorySessionStore (a user may share one in a process): a delete through
// one must stop the other's background tasks of the conversation, and keep their results from
// a new conversation of the id, as with two engines on one FileSessionStore folder.
let server: FakeOpenAIServer | undefined;
const engines: HarnessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  await server?.close();
  server = undefined;
});

const startServer = (gate: Promise<void>): Promise<FakeOpenAIServer> => backgroundScanServer(gate, 'SECRET FINDINGS of the scan');

async function twoEngines(): Promise<[HarnessEngine, HarnessEngine, MemorySessionStore]> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'rx-elsewhere-memory-')));
  const store = new MemorySessionStore();
  const make = (): HarnessEngine => {
    const engine = new HarnessEngine({ model: openAIModelFor(server!), workspace: dir, homeDir: dir, sessions: store });
    engine.agents.add(testAgent('scanner'));
    engines.push(engine);
    return engine;
  };
  return [make(), make(), store];
}

const lastPrompt = (): string => lastUserPrompt(server!);

describe('a conversation deleted by another engine on the same MemorySessionStore', () => {
  it('stops the task still running: it writes nothing back, and its result never reaches a new conversation of the id', async () => {
    let open!: () => void;
    server = await startServer(new Promise<void>((r) => (open = r)));
    const [a, b, store] = await twoEngines();
    await a.call('Start the scan in the background', { sessionId: 'notes' });
    const [task] = a.tasks.list('notes');
    await b.sessions.delete!('notes');
    expect(a.tasks.get(task!.taskId)?.state).not.toBe('running');
    open();
    await settled(a.tasks, task!.taskId);
    expect(store.list().map((s) => s.sessionId)).toEqual([]);
    expect(store.load(task!.taskId)).toEqual([]);
    await a.call('Hi, I am new here', { sessionId: 'notes' });
    expect(lastPrompt()).toBe('Hi, I am new here');
    expect(store.list().map((s) => s.sessionId)).toEqual(['notes']);
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
    expect(lastPrompt()).toContain('SECRET FINDINGS of the scan');
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
