/**
 * A deleted conversation's files, kept aside before the delete (the model's `cp`, a build
 * script) and put back after it, grant and load nothing in the new conversation of the id:
 * every seal binds the conversation's lifetime, raised by the delete and kept outside the
 * workspace (beside the grant key, or in the process for a key given in code). A conversation
 * never deleted, and lines sealed before lifetimes were kept, load as before.
 */
import { createHmac } from 'node:crypto';
import { readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { UnsealedSessionError } from '../../src/session/unsealed-session-error.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

// Never the real home: the key file and the lifetimes lie in a temporary one.
const ws = workspaceHomePerTest();
afterEach(() => {
  vi.restoreAllMocks();
});

const GRANT = { toolName: 'bash', subject: 'git push --force' };
const hi = [{ role: 'user' as const, content: 'hi' }];
const byFile = () => new FileSessionStore(ws.dir, { home: ws.home });

/** The session's grants and messages files' text, as a copy kept aside would hold them. */
async function keep(store: FileSessionStore): Promise<() => Promise<void>> {
  const files = [join(store.dir, 'talk.grants.jsonl'), join(store.dir, 'talk.jsonl')];
  const texts = await Promise.all(files.map((f) => readFile(f, 'utf8')));
  return async () => {
    for (const [i, f] of files.entries()) await writeFile(f, texts[i]!);
  };
}

/** Deletes the conversation `talk` (one message, one grant) of `store` with its files kept aside and put back. */
async function deleteKeepingFiles(store: FileSessionStore): Promise<void> {
  await store.append('talk', hi);
  await store.saveGrant('talk', GRANT);
  const putBack = await keep(store);
  await store.delete('talk');
  await putBack();
}

/** {@link deleteKeepingFiles} with the key file in the home folder; answers the conversation's lifetime file. */
async function deletedAndPutBack(): Promise<string> {
  await deleteKeepingFiles(byFile());
  const dir = join(ws.home, '.rxharness', 'lifetimes');
  const [file] = await readdir(dir);
  return join(dir, file!);
}

describe.each([
  ['the key file in the home folder', byFile],
  ['a key given in code', () => new FileSessionStore(ws.dir, { grantKey: 'k' })],
])('a deleted conversation put back, with %s', (_name, make) => {
  it('loads neither its grants nor its messages in a new store', async () => {
    await deleteKeepingFiles(make());
    const fresh = make();
    expect(await fresh.loadGrants('talk')).not.toContainEqual(GRANT);
    await expect(fresh.load('talk')).rejects.toBeInstanceOf(UnsealedSessionError);
  });

  it('keeps what the new conversation of the id writes, for a new store', async () => {
    const store = make();
    await store.append('talk', hi);
    await store.delete('talk');
    await store.append('talk', [{ role: 'user', content: 'again' }]);
    await store.saveGrant('talk', GRANT);
    expect(await make().loadGrants('talk')).toEqual([GRANT]);
    expect(await make().load('talk')).toEqual([{ role: 'user', content: 'again' }]);
  });
});

it('end to end: a new engine asks again when the deleted conversation\'s grants file is put back', async () => {
  const model = () =>
    new ScriptedModel((request) => {
      const results = request.messages.filter((m) => m.role === 'tool');
      if (results.length === 0) return { toolCalls: [{ name: 'bash', args: { command: 'echo pwned' } }] };
      return { text: `done: ${String(results.at(-1)?.content)}` };
    });
  const asked: string[] = [];
  const a = new HarnessEngine({ model: model(), workspace: ws.dir, homeDir: ws.home, approve: (r) => (asked.push(JSON.stringify(r.args)), { decision: 'always' }), sessions: byFile() });
  await a.call('go', { sessionId: 'talk' });
  expect(asked).toHaveLength(1);
  const grants = join(byFile().dir, 'talk.grants.jsonl');
  const kept = await readFile(grants, 'utf8');
  await a.sessions.delete!('talk');
  await a.close?.();
  await writeFile(grants, kept);
  vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  const asked2: string[] = [];
  const b = new HarnessEngine({ model: model(), workspace: ws.dir, homeDir: ws.home, approve: (r) => (asked2.push(JSON.stringify(r.args)), { decision: 'reject' }), sessions: byFile() });
  const r = await b.call('a brand new conversation', { sessionId: 'talk' });
  await b.close?.();
  expect(asked2).toEqual([JSON.stringify({ command: 'echo pwned' })]);
  expect(r.text).not.toContain('pwned\n');
});

it('lines sealed before lifetimes were kept load as before, and no more once the conversation is deleted', async () => {
  await byFile().append('other', hi); // makes the key file and the folder
  const key = await readFile(join(ws.home, '.rxharness', 'grant.key'));
  const folder = await realpath(byFile().dir);
  const mac = (facts: unknown[]) => createHmac('sha256', key).update(JSON.stringify(facts)).digest('hex');
  const grantLine = `${JSON.stringify({ ...GRANT, mac: mac(['rxharness-grant-1', folder, 'talk', GRANT.toolName, GRANT.subject]) })}\n`;
  const messageLine = `${JSON.stringify({ ...hi[0], mac: mac(['rxharness-message-2', folder, 'talk', 'messages', 0, '', 0, hi[0]]) })}\n`;
  const plant = async () => {
    await writeFile(join(folder, 'talk.grants.jsonl'), grantLine);
    await writeFile(join(folder, 'talk.jsonl'), messageLine);
  };
  await plant();
  expect(await byFile().loadGrants('talk')).toEqual([GRANT]);
  expect(await byFile().load('talk')).toEqual(hi);
  await byFile().delete('talk');
  await plant();
  expect(await byFile().loadGrants('talk')).not.toContainEqual(GRANT);
  await expect(byFile().load('talk')).rejects.toBeInstanceOf(UnsealedSessionError);
});

it('a corrupt lifetime file is an error naming it, not a conversation never deleted', async () => {
  const file = await deletedAndPutBack();
  await writeFile(file, 'zero\n');
  await expect(byFile().loadGrants('talk')).rejects.toThrow(/lifetime file .* is corrupt/);
  await expect(byFile().load('talk')).rejects.toThrow(/lifetime file .* is corrupt/);
  await expect(byFile().delete('talk')).rejects.toThrow(/is corrupt/);
});

it("its tasks' transcripts and grants kept aside and put back load and grant nothing", async () => {
  const store = byFile();
  await store.append('talk', hi);
  await store.saveTaskInfo({ taskId: 't1', agentName: 'alpha', description: 'd', ownerSessionId: 'talk' });
  await store.append('t1', [{ role: 'user', content: 'child work' }]);
  await store.saveGrant('t1', GRANT);
  const names = (await readdir(store.dir)).filter((name) => name.startsWith('t1'));
  expect(names).toEqual(expect.arrayContaining(['t1.task.json', 't1.jsonl', 't1.grants.jsonl']));
  const kept = await Promise.all(names.map(async (name) => [name, await readFile(join(store.dir, name), 'utf8')] as const));
  await store.delete('talk');
  for (const [name, text] of kept) await writeFile(join(store.dir, name), text);
  const fresh = byFile();
  await fresh.append('talk', [{ role: 'user', content: 'a new conversation' }]);
  expect(await fresh.loadGrants('t1')).not.toContainEqual(GRANT);
  await expect(fresh.load('t1')).rejects.toBeInstanceOf(UnsealedSessionError);
});

it('a lifetime file swapped for a link (to a file saying 0) is refused, not followed back to the first lifetime', async () => {
  const file = await deletedAndPutBack();
  const zero = join(ws.home, 'zero');
  await writeFile(zero, '0\n');
  await rm(file);
  await symlink(zero, file);
  await expect(byFile().loadGrants('talk')).rejects.toThrow(/cannot read the conversation lifetime file/);
  await expect(byFile().load('talk')).rejects.toThrow(/cannot read the conversation lifetime file/);
});
