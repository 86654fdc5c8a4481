import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { settled } from '../support/lifecycle-script.js';
import { expectOtherDeleteKeepsResult, expectTaskDeleteKeepsOthers, expectWaitingResultDropped, startScan, twoEnginesSharing } from './support/deleted-elsewhere.js';
import { scanEnginesPerTest } from './support/scan-engines.js';

// Two engines on one MemorySessionStore (a user may share one in a process): a delete through
// one must stop the other's background tasks of the conversation, and keep their results from
// a new conversation of the id, as with two engines on one FileSessionStore folder.
const scan = scanEnginesPerTest();
const FINDINGS = 'SECRET FINDINGS of the scan';
const startServer = (gate: Promise<void>): Promise<FakeOpenAIServer> => scan.serve(gate, FINDINGS);
const twoEngines = () => twoEnginesSharing(scan, new MemorySessionStore());

describe('a conversation deleted by another engine on the same MemorySessionStore', () => {
  it('stops the task still running: it writes nothing back, and its result never reaches a new conversation of the id', async () => {
    let open!: () => void;
    await startServer(new Promise<void>((r) => (open = r)));
    const [a, b, store] = await twoEngines();
    const task = await startScan(a);
    await b.sessions.delete!('notes');
    expect(a.tasks.get(task)?.state).not.toBe('running');
    open();
    await settled(a.tasks, task);
    expect(store.list().map((s) => s.sessionId)).toEqual([]);
    expect(store.load(task)).toEqual([]);
    await a.call('Hi, I am new here', { sessionId: 'notes' });
    expect(scan.lastPrompt()).toBe('Hi, I am new here');
    expect(store.list().map((s) => s.sessionId)).toEqual(['notes']);
  }, 60_000);

  it('a result already waiting when the other engine deleted the conversation is dropped', async () => {
    await startServer(Promise.resolve());
    await expectWaitingResultDropped(scan, await twoEngines());
  }, 60_000);

  it('a conversation the other engine did not delete still gets its result', async () => {
    await startServer(Promise.resolve());
    await expectOtherDeleteKeepsResult(scan, await twoEngines(), FINDINGS);
  }, 60_000);

  it('one task session deleted on its own leaves the conversation and its other results', async () => {
    await startServer(Promise.resolve());
    await expectTaskDeleteKeepsOthers(scan, await twoEngines());
  }, 60_000);
});
