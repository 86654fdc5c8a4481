import { describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { settled } from '../support/lifecycle-script.js';
import { expectOtherDeleteKeepsResult, expectTaskDeleteKeepsOthers, expectWaitingResultDropped, startScan } from './support/deleted-elsewhere.js';
import { scanEnginesPerTest } from './support/scan-engines.js';

// Two engines on one FileSessionStore folder (two processes, in effect): a delete through one
// must keep the other's background results of the conversation from a new conversation of the id.
const scan = scanEnginesPerTest();
const FINDINGS = 'FINDINGS of the scan';
const startServer = (gate: Promise<void>): Promise<FakeOpenAIServer> => scan.serve(gate, FINDINGS);

async function twoEngines(): Promise<[HarnessEngine, HarnessEngine]> {
  const key = new Uint8Array(32).fill(5);
  const [a, b] = await scan.engines(2, (dir) => new FileSessionStore(dir, { grantKey: key, home: dir }));
  return [a!, b!];
}

describe('a conversation deleted by another engine on the same store', () => {
  it('a task still running then writes nothing back, and its result never reaches a new conversation of the id', async () => {
    let open!: () => void;
    await startServer(new Promise<void>((r) => (open = r)));
    const [a, b] = await twoEngines();
    const task = await startScan(a);
    await b.sessions.delete!('notes');
    open();
    await settled(a.tasks, task);
    // Its write after the delete was refused: no transcript comes back as a conversation of its own.
    expect((await b.sessions.list!()).map((s) => s.sessionId)).toEqual([]);
    await a.call('Hi, I am new here', { sessionId: 'notes' });
    expect(scan.lastPrompt()).toBe('Hi, I am new here');
    expect((await b.sessions.list!()).map((s) => s.sessionId)).toEqual(['notes']);
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
