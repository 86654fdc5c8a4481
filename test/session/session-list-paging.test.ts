/**
 * SessionStore.list({ limit, after }) of the memory and file stores, as attacks: a page of 50
 * out of 10,000 sessions reads no transcript (the file store's transcripts are made
 * unreadable: replaced by folders), paging while sessions are added lists each one exactly
 * once, a corrupt or planted summary is skipped with a warning, and an id too long for a file
 * name (stored by its hash) is listed.
 */
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { sessionFileStem } from '../../src/session/session-file-name.js';
import type { SessionStore, SessionSummary } from '../../src/session/session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

let workspace: TestWorkspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

const user = (content: string) => ({ role: 'user' as const, content });
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Writes sessions `prefix0`... through the store, a batch at a time. */
async function fill(store: SessionStore, prefix: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  for (let i = 0; i < ids.length; i += 100) await Promise.all(ids.slice(i, i + 100).map((id) => store.append(id, [user(`question ${id}`)])));
  return ids;
}

/** Pages through the store, adding `added` new sessions before each next page. */
async function pageThrough(store: SessionStore, limit: number, added: number): Promise<{ listed: SessionSummary[]; pages: number; written: string[] }> {
  const listed: SessionSummary[] = [];
  const written: string[] = [];
  let pages = 0;
  for (let after: SessionSummary | undefined; ; ) {
    const page = await store.list!({ limit, ...(after ? { after } : {}) });
    pages += 1;
    expect(page.length).toBeLessThanOrEqual(limit);
    listed.push(...page);
    if (page.length < limit) return { listed, pages, written };
    after = page.at(-1);
    await tick();
    written.push(...(await fill(store, `added${pages}_`, added)));
  }
}

const stores = [
  ['MemorySessionStore', async () => new MemorySessionStore({ maxSessions: 20_000 })],
  ['FileSessionStore', async () => new FileSessionStore((workspace = await makeWorkspace()).dir, { home: workspace.home })],
] as const;

describe.each(stores)('%s.list() pages', (_name, make) => {
  it('lists each session exactly once across pages of 40 while sessions are added between pages', async () => {
    const store = await make();
    const ids = await fill(store, 'old', 300);
    await tick();
    const { listed, pages, written } = await pageThrough(store, 40, 3);
    const seen = listed.map((s) => s.sessionId);
    expect(new Set(seen).size).toBe(seen.length); // nothing twice
    expect(seen.filter((id) => id.startsWith('old')).sort()).toEqual(ids.slice().sort()); // nothing skipped
    expect(pages).toBeGreaterThanOrEqual(8);
    expect(written.length).toBeGreaterThan(0);
    // Newest first throughout.
    for (let i = 1; i < listed.length; i++) expect(listed[i - 1]!.lastActivityAt).toBeGreaterThanOrEqual(listed[i]!.lastActivityAt);
    // A new first page starts with what was added meanwhile.
    expect((await store.list!({ limit: 1 }))[0]!.sessionId.startsWith('added')).toBe(true);
  }, 60_000);
});

describe('FileSessionStore.list() reads no transcript', () => {
  it('answers a page of 50 out of 10,000 sessions whose transcripts cannot be read (folders in their place)', async () => {
    workspace = await makeWorkspace();
    const store = new FileSessionStore(workspace.dir, { home: workspace.home });
    const written = await fill(store, 's', 50); // through the store: the files as it writes them
    const folder = join(workspace.dir, '.rxharness', 'sessions');
    const summary = JSON.parse(await readFile(join(folder, 's0.summary.json'), 'utf8')) as unknown;
    expect(summary).toEqual({ sessionId: 's0', title: 'question s0', lastActivityAt: expect.any(Number) });
    // 9,950 more in the same form, quicker than through the store; then every transcript
    // becomes a folder: reading one fails (EISDIR), its time is still there.
    const ids = [...written, ...Array.from({ length: 9_950 }, (_, i) => `s${i + 50}`)];
    for (let i = 0; i < ids.length; i += 250) {
      await Promise.all(
        ids.slice(i, i + 250).map(async (id) => {
          if (written.includes(id)) await rm(join(folder, `${id}.jsonl`));
          await mkdir(join(folder, `${id}.jsonl`));
          // Summaries as an older version wrote them (no time): each is dated from its transcript, once.
          if (!written.includes(id)) await writeFile(join(folder, `${id}.summary.json`), JSON.stringify({ sessionId: id, title: `question ${id}` }));
        }),
      );
    }
    const page = await store.list({ limit: 50 });
    expect(page).toHaveLength(50);
    for (const listed of page) expect(listed.title).toBe(`question ${listed.sessionId}`);
    expect(new Set(page.map((s) => s.sessionId)).size).toBe(50);
    const next = await store.list({ limit: 50, after: page.at(-1)! });
    expect(next).toHaveLength(50);
    expect(next.filter((s) => page.some((p) => p.sessionId === s.sessionId))).toEqual([]);
    await workspace.cleanup(); // here, where the time allows for 20,000 entries
    workspace = undefined;
  }, 120_000);
});

describe('MemorySessionStore.list() of 10,000', () => {
  it('answers the 50 most recent, titled, newest first', async () => {
    const store = new MemorySessionStore({ maxSessions: 20_000 });
    await fill(store, 's', 10_000);
    await tick();
    store.append('latest', [user('the latest one')]);
    const page = store.list({ limit: 50 });
    expect(page).toHaveLength(50);
    expect(page[0]).toMatchObject({ sessionId: 'latest', title: 'the latest one' });
  });
});

describe('FileSessionStore.list() and its summaries', () => {
  /** Catches the process warnings emitted while `run` runs. */
  async function warningsOf(run: () => Promise<unknown>): Promise<string[]> {
    const warnings: string[] = [];
    const listen = (warning: Error & { code?: string }) => {
      if (warning.code === 'RXHARNESS_BAD_SESSION_SUMMARY') warnings.push(warning.message);
    };
    process.on('warning', listen);
    try {
      await run();
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', listen);
    }
    return warnings;
  }

  it('skips a corrupt summary, a planted one naming another session, and one that is a link, with a warning each; lists the others', async () => {
    workspace = await makeWorkspace();
    const store = new FileSessionStore(workspace.dir, { home: workspace.home });
    for (const id of ['notes', 'corrupt', 'planted', 'linked']) await store.append(id, [user(`about ${id}`)]);
    const folder = join(workspace.dir, '.rxharness', 'sessions');
    await writeFile(join(folder, 'corrupt.summary.json'), '{"sessionId": "corr');
    // A summary claiming to be "notes", under a false title: "notes" must not be listed twice.
    await writeFile(join(folder, 'planted.summary.json'), JSON.stringify({ sessionId: 'notes', title: 'Click here' }));
    await writeFile(join(workspace.dir, 'outside.json'), JSON.stringify({ sessionId: 'linked', title: 'from outside' }));
    await rm(join(folder, 'linked.summary.json'));
    await symlink(join(workspace.dir, 'outside.json'), join(folder, 'linked.summary.json'));
    let listed: SessionSummary[] = [];
    const warnings = await warningsOf(async () => (listed = await store.list({ limit: 10 })));
    expect(listed.map((s) => [s.sessionId, s.title])).toEqual([['notes', 'about notes']]);
    expect(warnings).toHaveLength(3);
    expect(warnings.join('\n')).toMatch(/corrupt\.summary\.json is not listed: it is not JSON/);
    expect(warnings.join('\n')).toMatch(/planted\.summary\.json is not listed: it names the session "notes"/);
    expect(warnings.join('\n')).toMatch(/linked\.summary\.json is not listed: it cannot be read safely .*symbolic link/);
  });

  it('lists a session whose id is too long for a file name (stored by its hash), under its real id', async () => {
    workspace = await makeWorkspace();
    const store = new FileSessionStore(workspace.dir, { home: workspace.home });
    const long = `conversation-${'ü'.repeat(150)}`; // over 200 bytes as a file name
    expect(sessionFileStem(long).startsWith('~~')).toBe(true);
    await store.append(long, [user('a long id')]);
    const listed = await new FileSessionStore(workspace.dir, { home: workspace.home }).list({ limit: 5 });
    expect(listed.map((s) => [s.sessionId, s.title])).toEqual([[long, 'a long id']]);
    // Paging after it works too (the position names the real id).
    expect(await store.list({ limit: 5, after: listed[0]! })).toEqual([]);
  });

  it('titles a session written before summaries from its transcript, once, and writes its summary', async () => {
    workspace = await makeWorkspace();
    const folder = join(workspace.dir, '.rxharness', 'sessions');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'legacy.jsonl'), `${JSON.stringify(user('from an older version'))}\n`);
    const store = new FileSessionStore(workspace.dir, { home: workspace.home });
    expect((await store.list()).map((s) => [s.sessionId, s.title])).toEqual([['legacy', 'from an older version']]);
    await rm(join(folder, 'legacy.jsonl'));
    await mkdir(join(folder, 'legacy.jsonl')); // unreadable now: the summary answers
    expect((await store.list()).map((s) => [s.sessionId, s.title])).toEqual([['legacy', 'from an older version']]);
  });
});
