import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { ConversationLifetimes } from '../../src/session/conversation-lifetimes.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const GRANT = { toolName: 'bash', subject: 'git push --force' };
const hi = [{ role: 'user' as const, content: 'hi' }];
const byFile = () => new FileSessionStore(ws.dir, { home: ws.home });
const lifetimesDir = () => join(ws.home, '.rxharness', 'lifetimes');

describe('a conversation deleted while its sessions folder is moved aside', () => {
  it('ends its lifetime all the same: put back, its grant and messages are refused', async () => {
    const store = byFile();
    await store.append('talk', hi);
    await store.saveGrant('talk', GRANT);
    const aside = join(ws.dir, '.rxharness', 'kept');
    await rename(store.dir, aside);
    await byFile().delete('talk');
    await rename(aside, store.dir);
    const fresh = byFile();
    expect(await fresh.loadGrants('talk')).not.toContainEqual(GRANT);
    await expect(fresh.load('talk')).rejects.toThrow(/deleted/);
  });

  it('each of its files moved aside (none left to find), put back: refused too (no delete skips its lifetime for want of files)', async () => {
    const store = byFile();
    await store.append('talk', hi);
    await store.saveGrant('talk', GRANT);
    const names = (await readdir(store.dir)).filter((name) => name.startsWith('talk.'));
    for (const name of names) await rename(join(store.dir, name), join(ws.dir, name));
    await byFile().delete('talk');
    for (const name of names) await rename(join(ws.dir, name), join(store.dir, name));
    expect(await byFile().loadGrants('talk')).not.toContainEqual(GRANT);
    await expect(byFile().load('talk')).rejects.toThrow(/deleted/);
  });

  it('through the engine: the delete succeeds (no bare ENOENT), and the conversation put back is refused', async () => {
    const model = () =>
      new ScriptedModel((request) => {
        const results = request.messages.filter((m) => m.role === 'tool');
        return results.length === 0 ? { toolCalls: [{ name: 'bash', args: { command: 'echo pwned' } }] } : { text: 'done' };
      });
    const asked: string[] = [];
    const approve = (r: { args: unknown }) => (asked.push(JSON.stringify(r.args)), { decision: 'always' as const });
    const a = new HarnessEngine({ model: model(), workspace: ws.dir, homeDir: ws.home, approve, sessions: byFile() });
    await a.call('go', { sessionId: 'talk' });
    const dir = byFile().dir;
    const aside = join(ws.dir, '.rxharness', 'kept');
    await rename(dir, aside);
    await expect(a.sessions.delete!('talk')).resolves.toBeUndefined(); // no bare ENOENT on its lock
    await a.close?.();
    await rename(aside, dir); // the folder the delete made again is empty: put back over it
    const b = new HarnessEngine({ model: model(), workspace: ws.dir, homeDir: ws.home, approve, sessions: byFile() });
    const answer = await b.call('a new conversation', { sessionId: 'talk' });
    await b.close?.();
    // The old lines are a deleted conversation's: refused, and the "always" put back grants nothing.
    expect(answer.abnormal).toBe(true);
    expect(asked).toHaveLength(1);
    expect((await byFile().loadGrants('talk')).filter((g) => !('notSigned' in g))).toEqual([]);
  });
});

describe('the lifetime count at its bound', () => {
  it('refuses the delete before writing a count no read accepts, saying what to do', async () => {
    const store = byFile();
    await store.append('talk', hi);
    await store.delete('talk');
    const [file] = await readdir(lifetimesDir());
    await writeFile(join(lifetimesDir(), file!), '999999999999999\n');
    await store.append('talk', hi);
    await expect(byFile().delete('talk')).rejects.toThrow(/deleted too many times/);
    await expect(byFile().load('talk')).resolves.toBeDefined(); // the count was left readable
  });
});

describe('lifetimes kept in the process (a key given in code)', () => {
  it('are not forgotten after many other deletes: the live conversation loads, a grant kept aside does not', async () => {
    const make = () => new FileSessionStore(ws.dir, { grantKey: 'k' });
    const store = make();
    await store.append('talk', hi);
    await store.saveGrant('talk', GRANT);
    const grants = join(store.dir, 'talk.grants.jsonl');
    const kept = await readFile(grants, 'utf8');
    await store.delete('talk');
    await store.append('talk', [{ role: 'user', content: 'new life' }]);
    const lifetimes = ConversationLifetimes.inMemory();
    for (let i = 0; i < 10_001; i++) await lifetimes.end(['/other'], `s${i}`);
    await expect(make().load('talk')).resolves.toEqual([{ role: 'user', content: 'new life' }]);
    await writeFile(grants, kept);
    expect(await make().loadGrants('talk')).not.toContainEqual(GRANT);
  });
});

describe('a failing history file in a conversation deleted many times', () => {
  /** The session "talk", deleted once, its lifetime file then set to `lifetime`, and an unsealed line planted as its file. */
  async function planted(lifetime: number): Promise<void> {
    const store = byFile();
    await store.append('talk', hi);
    await store.delete('talk');
    const [file] = await readdir(lifetimesDir());
    await writeFile(join(lifetimesDir(), file!), `${lifetime}\n`);
    await writeFile(join(store.dir, 'talk.jsonl'), `${JSON.stringify({ role: 'user', content: 'planted' })}\n`);
  }
  const trusting = () => new FileSessionStore(ws.dir, { home: ws.home, trustUnsealed: ['talk'] });

  it('within the 32 earlier lifetimes checked, is trusted when named (every earlier lifetime was checked)', async () => {
    await planted(32);
    await expect(trusting().load('talk')).resolves.toEqual([{ role: 'user', content: 'planted' }]);
  });

  it('past them, is refused as maybe a deleted conversation\'s, and taken when the user names it in trustUnsealed', async () => {
    await planted(33);
    await expect(byFile().load('talk')).rejects.toMatchObject({ name: 'UnsealedSessionError', what: 'maybe-deleted' });
    await expect(trusting().load('talk')).resolves.toEqual([{ role: 'user', content: 'planted' }]);
  });
});
