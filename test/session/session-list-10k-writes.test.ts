/**
 * Paging 10,000 conversations with the cursor (`after`: the last of the previous page) while
 * conversations are written as each page is read: already listed ones, ones not listed yet,
 * new ones. A written conversation moves to the front, so the pass may leave it out, but it
 * must never list one twice, nor miss one that was not written meanwhile.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore, SessionSummary } from '../../src/session/session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

let workspace: TestWorkspace | undefined;
afterEach(async () => {
  await workspace?.cleanup();
  workspace = undefined;
});

const COUNT = 10_000;
const user = (content: string) => ({ role: 'user' as const, content });

/** Through the store, a batch at a time. */
async function fillThrough(store: SessionStore, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 250) await Promise.all(ids.slice(i, i + 250).map((id) => store.append(id, [user(`about ${id}`)])));
}

/**
 * The first 50 through the store, the rest in the same form written directly (quicker than
 * 10,000 sealed appends): a summary as the store writes it, dated in the past, pairs of them
 * at the same millisecond (ties go by id), and a transcript file beside it.
 */
async function fillFolder(store: FileSessionStore, ids: readonly string[]): Promise<void> {
  await fillThrough(store, ids.slice(0, 50));
  expect(JSON.parse(await readFile(join(store.dir, 'c0.summary.json'), 'utf8'))).toEqual({ sessionId: 'c0', title: 'about c0', lastActivityAt: expect.any(Number) });
  const past = Date.now() - COUNT;
  const rest = ids.slice(50);
  for (let i = 0; i < rest.length; i += 250) {
    await Promise.all(
      rest.slice(i, i + 250).flatMap((id, j) => [
        writeFile(join(store.dir, `${id}.summary.json`), JSON.stringify({ sessionId: id, title: `about ${id}`, lastActivityAt: past + ((i + j) >> 1) })),
        writeFile(join(store.dir, `${id}.jsonl`), ''),
      ]),
    );
  }
}

/** A store, and how to fill it with sessions of the given ids. */
type Made = { readonly store: SessionStore; readonly fill: (ids: readonly string[]) => Promise<void> };

const stores: [string, number, () => Promise<Made>][] = [
  ['MemorySessionStore', 97, async () => {
    const store = new MemorySessionStore({ maxSessions: 20_000 });
    return { store, fill: (ids) => fillThrough(store, ids) };
  }],
  ['FileSessionStore', 2_500, async () => {
    const store = new FileSessionStore((workspace = await makeWorkspace()).dir, { home: workspace.home });
    return { store, fill: (ids) => fillFolder(store, ids) };
  }],
];

describe.each(stores)('%s.list() over 10,000 conversations', (_name, limit, make) => {
  it('pages with the cursor, written ones moving to the front: none twice, none left out that was not written', async () => {
    const { store, fill } = await make();
    const ids = Array.from({ length: COUNT }, (_, i) => `c${i}`);
    await fill(ids);
    const written = new Set<string>();
    const listed: string[] = [];
    const once = new Set<string>();
    for (let after: SessionSummary | undefined, round = 0; ; round++) {
      // One listed, one not listed yet, and a new one, written as the page is read.
      const unlisted = ids.find((id) => !once.has(id) && !written.has(id));
      const touched = [listed[round], unlisted, `new${round}`].filter((id): id is string => id !== undefined);
      for (const id of touched) written.add(id);
      const [page] = await Promise.all([store.list!({ limit, ...(after ? { after } : {}) }), ...touched.map((id) => store.append(id, [user('more')]))]);
      expect(page.length).toBeLessThanOrEqual(limit);
      for (const { sessionId } of page) {
        listed.push(sessionId);
        once.add(sessionId);
      }
      if (page.length < limit) break;
      after = page.at(-1);
    }
    expect(listed.length - once.size).toBe(0); // none twice
    const untouched = ids.filter((id) => !written.has(id));
    expect(untouched.filter((id) => !once.has(id))).toEqual([]); // none missed
    expect(untouched.length).toBeGreaterThan(COUNT - 3 * Math.ceil(COUNT / limit) - 3);
  }, 180_000);
});
