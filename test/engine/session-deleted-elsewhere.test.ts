import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { settled } from '../support/lifecycle-script.js';
import { scanEnginesPerTest } from './support/scan-engines.js';

// Two engines on one FileSessionStore folder (two processes, in effect): a delete through one
// must keep the other's background results of the conversation from a new conversation of the id.
const scan = scanEnginesPerTest();
const startServer = (gate: Promise<void>): Promise<FakeOpenAIServer> => scan.serve(gate, 'FINDINGS of the scan');

async function twoEngines(): Promise<[HarnessEngine, HarnessEngine]> {
  const key = new Uint8Array(32).fill(5);
  const [a, b] = await scan.engines(2, (dir) => new FileSessionStore(dir, { grantKey: key, home: dir }));
  return [a!, b!];
}

const lastPrompt = (): string => scan.lastPrompt();

describe('a conversation deleted by another engine on the same store', () => {
  it('a task still running then writes nothing back, and its result never reaches a new conversation of the id', async () => {
    let open!: () => void;
    await startServer(new Promise<void>((r) => (open = r)));
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
    await startServer(Promise.resolve());
    const [a, b] = await twoEngines();
    await a.call('Start the scan in the background', { sessionId: 'notes' });
    await settled(a.tasks, a.tasks.list('notes')[0]!.taskId);
    await b.sessions.delete!('notes');
    await a.call('Hi, I am new here', { sessionId: 'notes' });
    expect(lastPrompt()).toBe('Hi, I am new here');
  }, 60_000);

  it('a conversation the other engine did not delete still gets its result', async () => {
    await startServer(Promise.resolve());
    const [a, b] = await twoEngines();
    await a.call('Start the scan in the background', { sessionId: 'notes' });
    await settled(a.tasks, a.tasks.list('notes')[0]!.taskId);
    await b.call('Hi', { sessionId: 'other' });
    await b.sessions.delete!('other');
    await a.call('Any news?', { sessionId: 'notes' });
    expect(lastPrompt()).toContain('FINDINGS of the scan');
  }, 60_000);

  it('one task session deleted on its own leaves the conversation and its other results', async () => {
    await startServer(Promise.resolve());
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
