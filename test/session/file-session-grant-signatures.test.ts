import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { collect, own } from '../support/collect-events.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

// A cloned repository ships `.rxharness/sessions/notes.grants.jsonl`; `rxharness run --session notes` must not trust it.
const KEY = 'the user key, kept outside the workspace';
const COMMAND = 'echo planted';

let ws: TestWorkspace;
let elsewhere: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
  elsewhere = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
  await elsewhere.cleanup();
});

const grantsFile = (dir: string, sessionId: string): string => join(dir, '.rxharness', 'sessions', `${sessionId}.grants.jsonl`);
const bashOnce = () => new ScriptedModel((request) => (request.messages.at(-1)?.role === 'user' ? { toolCalls: [{ name: 'bash', args: { command: COMMAND } }] } : { text: 'ok' }));

/** Runs `bash COMMAND` in session "notes" with `store`, rejecting every approval asked: what was asked, and the run's Warnings. */
async function runNotes(store: FileSessionStore): Promise<{ asked: ApprovalRequest[]; warnings: string[] }> {
  const asked: ApprovalRequest[] = [];
  const engine = new HarnessEngine({ model: bashOnce(), workspace: ws.dir, homeDir: ws.home, sessions: store, approve: (r) => (asked.push(r), { decision: 'reject' }) });
  const events = await collect(engine.stream('go', { sessionId: 'notes' }));
  await engine.close();
  return { asked, warnings: own(events, 'Warning').map((w) => `${w.code}: ${w.message}`) };
}

async function plant(text: string): Promise<void> {
  await mkdir(join(ws.dir, '.rxharness', 'sessions'), { recursive: true });
  await writeFile(grantsFile(ws.dir, 'notes'), text);
}

describe('FileSessionStore grants planted in the workspace grant nothing', () => {
  it('a hand-written grants line: the approval is asked, and a Warning says it was skipped', async () => {
    await plant(`${JSON.stringify({ toolName: 'bash', subject: COMMAND })}\n`);
    const { asked, warnings } = await runNotes(new FileSessionStore(ws.dir, { grantKey: KEY }));
    expect(asked).toHaveLength(1);
    expect(warnings).toEqual([expect.stringMatching(/^grant-skipped: Skipped 1 stored approval\(s\) of session "notes".*not signed/)]);
  });

  it('a line with a made-up MAC: the approval is asked', async () => {
    await plant(`${JSON.stringify({ toolName: 'bash', subject: COMMAND, mac: '00'.repeat(32) })}\n`);
    expect((await runNotes(new FileSessionStore(ws.dir, { grantKey: KEY }))).asked).toHaveLength(1);
  });

  it("a line copied from another session's signed file: the approval is asked", async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: KEY });
    await store.saveGrant('other', { toolName: 'bash', subject: COMMAND });
    await copyFile(grantsFile(ws.dir, 'other'), grantsFile(ws.dir, 'notes'));
    expect((await store.loadGrants('other')).length).toBe(1); // it holds where it was signed
    expect((await runNotes(new FileSessionStore(ws.dir, { grantKey: KEY }))).asked).toHaveLength(1);
  });

  it("a line copied from the same session in another folder, signed with the same key: the approval is asked", async () => {
    await new FileSessionStore(elsewhere.dir, { grantKey: KEY }).saveGrant('notes', { toolName: 'bash', subject: COMMAND });
    await plant(await readFile(grantsFile(elsewhere.dir, 'notes'), 'utf8'));
    expect((await runNotes(new FileSessionStore(ws.dir, { grantKey: KEY }))).asked).toHaveLength(1);
  });

  it('a line whose subject was changed after signing: the approval is asked', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: KEY });
    await store.saveGrant('notes', { toolName: 'bash', subject: 'echo harmless' });
    const signed = JSON.parse(await readFile(grantsFile(ws.dir, 'notes'), 'utf8')) as Record<string, unknown>;
    await plant(`${JSON.stringify({ ...signed, subject: COMMAND })}\n`);
    expect((await runNotes(new FileSessionStore(ws.dir, { grantKey: KEY }))).asked).toHaveLength(1);
  });
});

describe('FileSessionStore grants it signed itself', () => {
  it('survive a new store on the same folder with the same key, and grant', async () => {
    const asked: ApprovalRequest[] = [];
    const first = new HarnessEngine({ model: bashOnce(), workspace: ws.dir, homeDir: ws.home, sessions: new FileSessionStore(ws.dir, { grantKey: KEY }), approve: (r) => (asked.push(r), { decision: 'always' }) });
    await first.call('go', { sessionId: 'notes' });
    await first.close();
    expect(asked).toHaveLength(1);
    const again = await runNotes(new FileSessionStore(ws.dir, { grantKey: new TextEncoder().encode(KEY) }));
    expect(again).toEqual({ asked: [], warnings: [] });
  });

  it("are dropped under another key (another user's): the approval is asked", async () => {
    await new FileSessionStore(ws.dir, { grantKey: KEY }).saveGrant('notes', { toolName: 'bash', subject: COMMAND });
    const { asked, warnings } = await runNotes(new FileSessionStore(ws.dir, { grantKey: 'another user' }));
    expect(asked).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });

  it('an empty grantKey is refused when the store is made', () => {
    expect(() => new FileSessionStore(ws.dir, { grantKey: '' })).toThrow(/grantKey must not be empty/);
  });
});
