/**
 * FileSessionStore.list() as attacks on what a page costs and promises: a page of 10,000
 * sessions reads their summaries only (no transcript is opened or dated; a pass-through
 * recorder of node:fs/promises counts every file the store touches), a summary from before
 * the time was kept is dated once from its transcript, and a property: paging while sessions
 * are written (between pages and during them, the clock even set back) lists no session
 * twice and skips none that was there throughout and not written meanwhile (SessionListRequest.after).
 */
import fc from 'fast-check';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore, SessionSummary } from '../../src/session/session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

// Every path node:fs/promises is asked to open or lstat, in the order asked; the calls go through.
const touched = vi.hoisted(() => ({ open: [] as string[], lstat: [] as string[] }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof real.open = (path, ...rest) => (touched.open.push(String(path)), real.open(path, ...rest));
  const lstat = ((path: string, ...rest: []) => (touched.lstat.push(String(path)), real.lstat(path, ...rest))) as typeof real.lstat;
  return { ...real, default: { ...real, open, lstat }, open, lstat };
});

let workspace: TestWorkspace | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await workspace?.cleanup();
  workspace = undefined;
});

const user = (content: string) => ({ role: 'user' as const, content });
const transcripts = (paths: readonly string[]) => paths.filter((path) => path.endsWith('.jsonl'));

describe('FileSessionStore.list() reads summaries only', () => {
  it('pages 10,000 sessions without opening or dating a transcript: one summary read per session', async () => {
    workspace = await makeWorkspace();
    const store = new FileSessionStore(workspace.dir, { home: workspace.home });
    const folder = join(workspace.dir, '.rxharness', 'sessions');
    const written = Array.from({ length: 20 }, (_, i) => `w${i}`);
    for (const id of written) await store.append(id, [user(`question ${id}`)]);
    const kept = JSON.parse(await readFile(join(folder, 'w0.summary.json'), 'utf8')) as SessionSummary;
    expect(kept).toEqual({ sessionId: 'w0', title: 'question w0', lastActivityAt: expect.any(Number) });
    // 9,980 more as the store writes them (a summary with its time), quicker than through it;
    // every transcript a folder: reading one fails (EISDIR).
    const ids = Array.from({ length: 9_980 }, (_, i) => `s${i}`);
    for (let i = 0; i < ids.length; i += 250) {
      await Promise.all(
        ids.slice(i, i + 250).map(async (id, j) => {
          await mkdir(join(folder, `${id}.jsonl`));
          await writeFile(join(folder, `${id}.summary.json`), JSON.stringify({ sessionId: id, title: `question ${id}`, lastActivityAt: 1_000 + i + j }));
        }),
      );
    }
    for (const id of written) {
      await rm(join(folder, `${id}.jsonl`));
      await mkdir(join(folder, `${id}.jsonl`));
    }
    touched.open.length = 0;
    touched.lstat.length = 0;
    const page = await store.list({ limit: 50 });
    expect(page.map((s) => s.sessionId)).toEqual([...written.slice().reverse(), ...ids.slice(-30).reverse()]);
    const next = await store.list({ limit: 50, after: page.at(-1)! });
    expect(next.map((s) => s.sessionId)).toEqual(ids.slice(-80, -30).reverse());
    expect(transcripts([...touched.open, ...touched.lstat])).toEqual([]);
    expect(touched.open.every((path) => path.endsWith('.summary.json'))).toBe(true);
    expect(touched.open).toHaveLength(2 * 10_000);
    await workspace.cleanup(); // here, where the time allows for 20,000 entries
    workspace = undefined;
  }, 120_000);

  it('dates a summary written before the time was kept from its transcript, once', async () => {
    workspace = await makeWorkspace();
    const folder = join(workspace.dir, '.rxharness', 'sessions');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'old.jsonl'), `${JSON.stringify(user('from an older version'))}\n`);
    await writeFile(join(folder, 'old.summary.json'), JSON.stringify({ sessionId: 'old', title: 'from an older version' }));
    const store = new FileSessionStore(workspace.dir, { home: workspace.home });
    touched.lstat.length = 0;
    const [first] = await store.list();
    expect(first).toMatchObject({ sessionId: 'old', title: 'from an older version' });
    expect(transcripts(touched.lstat)).toEqual([join(folder, 'old.jsonl')]);
    expect(JSON.parse(await readFile(join(folder, 'old.summary.json'), 'utf8'))).toEqual(first);
    touched.lstat.length = 0;
    expect(await store.list()).toEqual([first]);
    expect(transcripts(touched.lstat)).toEqual([]);
  });
});

/** What happens between two pages, or while one is read: a session written (an existing one, or a new one), the clock moved by `clock` ms. */
const step = fc.record({ write: fc.nat({ max: 40 }), clock: fc.integer({ min: -3, max: 5 }), duringPage: fc.boolean() });

// The memory store makes the same promise (SessionListRequest.after); both are held to it.
const stores = [
  ['FileSessionStore', (ws: TestWorkspace): SessionStore => new FileSessionStore(ws.dir, { home: ws.home }), 40],
  ['MemorySessionStore', (): SessionStore => new MemorySessionStore(), 400],
] as const;

describe.each(stores)('%s.list() paging under writes (property)', (_name, make, numRuns) => {
  it('lists no session twice and skips none that was there throughout and not written meanwhile', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 7 }), fc.array(fc.array(step, { maxLength: 4 }), { maxLength: 12 }), async (initial, limit, between) => {
        vi.useFakeTimers({ toFake: ['Date'] });
        let now = 1_000_000;
        const ws = await makeWorkspace();
        try {
          const store = make(ws);
          const write = async (id: string, clock: number) => {
            now += clock;
            vi.setSystemTime(now);
            await store.append(id, [user(`about ${id}`)]);
          };
          const present = Array.from({ length: initial }, (_, i) => `s${i}`);
          // Several sessions share a millisecond: ties are ordered by id.
          for (const [i, id] of present.entries()) await write(id, i % 3 === 0 ? 1 : 0);
          const writtenMeanwhile = new Set<string>();
          const apply = (steps: readonly { write: number; clock: number }[]) =>
            steps.map(({ write: which, clock }) => {
              const id = which < present.length ? present[which]! : `new${which}`;
              writtenMeanwhile.add(id);
              return write(id, clock);
            });
          const listed: string[] = [];
          let after: SessionSummary | undefined;
          for (let p = 0; ; p++) {
            const steps = between[p] ?? [];
            const during = apply(steps.filter((s) => s.duringPage));
            const page = await store.list!({ limit, ...(after ? { after } : {}) });
            await Promise.all(during);
            listed.push(...page.map((s) => s.sessionId));
            if (page.length < limit) break;
            after = page.at(-1);
            await Promise.all(apply(steps.filter((s) => !s.duringPage)));
          }
          expect(new Set(listed).size).toBe(listed.length);
          const throughout = present.filter((id) => !writtenMeanwhile.has(id));
          expect(throughout.filter((id) => !listed.includes(id))).toEqual([]);
        } finally {
          vi.useRealTimers();
          await ws.cleanup();
        }
      }),
      { numRuns },
    );
  }, 120_000);
});
