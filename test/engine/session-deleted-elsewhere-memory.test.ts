import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { settled } from '../support/lifecycle-script.js';
import { scanEnginesPerTest } from './support/scan-engines.js';

// Two engines on one MemorySessionStore (a user may share one in a process): a delete through
// one must stop the other's background tasks of the conversation, and keep their results from
// a new conversation of the id, as with two engines on one FileSessionStore folder.
const scan = scanEnginesPerTest();
const startServer = (gate: Promise<void>): Promise<FakeOpenAIServer> => scan.serve(gate, 'SECRET FINDINGS of the scan');

async function twoEngines(): Promise<[HarnessEngine, HarnessEngine, MemorySessionStore]> {
  const store = new MemorySessionStore();
  const [a, b] = await scan.engines(2, () => store);
  return [a!, b!, store];
}

const lastPrompt = (): string => scan.lastPrompt();

describe('a conversation deleted by another engine on the same MemorySessionStore', () => {
  it('stops the task still running: it writes nothing back, and its result never reaches a new conversation of the id', async () => {
    let open!: () => void;
    await startServer(new Promise<void>((r) => (open = r)));
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
    expect(lastPrompt()).toContain('SECRET FINDINGS of the scan');
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
