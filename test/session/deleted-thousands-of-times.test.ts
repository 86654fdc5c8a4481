/**
 * One conversation deleted 10,000 times, written and granted "always" between some of the
 * deletes, with its transcript and grant files kept aside in a few of its lifetimes (a
 * model's `cp`, or a backup). After the last delete the live conversation loads and grants,
 * every copy put back is refused (as a deleted conversation's within the 32 lifetimes a load
 * checks, as maybe one past them) and grants nothing, and what counts the deletes does not
 * grow with them: no file per delete, and one small lifetime file for the conversation
 * whatever the count.
 *
 * The 10,000 deletes go through a store with a key given in code (lifetimes kept in the
 * process; a delete of a session with no files makes some 13 file-system calls, 41 before
 * its way was checked once for all its files): through the key file in a home folder each
 * delete also reads and writes a lifetime file, several times slower; a second test counts
 * the lifetime files over a hundred deletes that way. Only the public store API is used (how
 * lifetimes are keyed is the store's own business), so the entries kept in the process for
 * a key given in code are not counted here.
 */
import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { ApprovalGrant } from '../../src/session/session-store.js';
import { UnsealedSessionError } from '../../src/session/unsealed-session-error.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const DELETES = 10_000;
/** The lifetimes (1-based: the n-th is the one the (n-1)-th delete began) whose files are kept aside, and how each is refused. */
const KEPT: ReadonlyArray<readonly [number, 'deleted' | 'maybe-deleted']> = [
  [1, 'maybe-deleted'],
  [33, 'maybe-deleted'],
  [DELETES - 32, 'maybe-deleted'], // just past the 32 earlier lifetimes a load checks
  [DELETES - 31, 'deleted'], // the oldest of them
  [DELETES - 1, 'deleted'],
  [DELETES, 'deleted'], // the one the last delete ended
];
const ID = 'talk';
const FILES = [`${ID}.jsonl`, `${ID}.grants.jsonl`] as const;
const grantOf = (lifetime: number | 'live'): ApprovalGrant => ({ toolName: 'bash', subject: `git push --force # ${lifetime}` });
const said = (lifetime: number | 'live') => ({ role: 'user' as const, content: `lifetime ${lifetime}` });
const isGrant = (g: unknown): g is ApprovalGrant => typeof g === 'object' && g !== null && !('notSigned' in g);

describe(`a conversation deleted ${DELETES.toLocaleString('en')} times`, () => {
  it('loads and grants live; every copy kept aside and put back is refused and grants nothing; no file per delete', async () => {
    const make = () => new FileSessionStore(ws.dir, { grantKey: 'k' });
    const store = make();
    const aside = await mkdtemp(join(tmpdir(), 'rxharness-lifetimes-'));
    onTestFinished(() => rm(aside, { recursive: true, force: true }));
    const keptAt = new Set(KEPT.map(([lifetime]) => lifetime));
    for (let lifetime = 1; lifetime <= DELETES; lifetime++) {
      // Written and granted in some lifetimes only: most deletes find no file, and count all the same.
      if (keptAt.has(lifetime) || lifetime % 250 === 0) {
        await store.append(ID, [said(lifetime)]);
        await store.saveGrant(ID, grantOf(lifetime));
        expect(await store.loadGrants(ID)).toEqual([grantOf(lifetime)]);
      }
      if (keptAt.has(lifetime)) for (const name of FILES) await copyFile(join(store.dir, name), join(aside, `${lifetime}.${name}`));
      await store.delete(ID);
    }
    await store.append(ID, [said('live')]);
    await store.saveGrant(ID, grantOf('live'));

    expect(await make().load(ID)).toEqual([said('live')]);
    expect(await make().loadGrants(ID)).toEqual([grantOf('live')]);
    // Nothing written per delete: no home folder, and in the sessions folder only the live conversation's files.
    await expect(stat(ws.home)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readdir(store.dir)).filter((name) => !name.startsWith(`${ID}.`))).toEqual([]);

    const live = await Promise.all(FILES.map((name) => readFile(join(store.dir, name))));
    for (const [lifetime, what] of KEPT) {
      for (const name of FILES) await copyFile(join(aside, `${lifetime}.${name}`), join(store.dir, name));
      for (const fresh of [store, make()]) {
        const refused = await Promise.resolve(fresh.load(ID)).then(() => undefined, (e: unknown) => e);
        expect(refused, `lifetime ${lifetime}`).toBeInstanceOf(UnsealedSessionError);
        expect((refused as UnsealedSessionError).what, `lifetime ${lifetime}`).toBe(what);
        const grants = await fresh.loadGrants(ID);
        expect(grants.filter(isGrant), `lifetime ${lifetime}`).toEqual([]);
        expect(grants, `lifetime ${lifetime}: the line is there, as no grant`).toHaveLength(1);
      }
      await Promise.all(FILES.map((name, i) => writeFile(join(store.dir, name), live[i]!)));
    }
    // Put back as it was, the live conversation still loads and grants.
    expect(await make().load(ID)).toEqual([said('live')]);
    expect(await make().loadGrants(ID)).toEqual([grantOf('live')]);
  }, 240_000); // some 1.5 ms of CPU per delete: 15 s and more; the bound is for 2 shared, busy cores
});

describe('a conversation deleted many times, its key file in the home folder', () => {
  it('keeps one small lifetime file for it, however many deletes (none per delete)', async () => {
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    const lifetimes = join(ws.home, '.rxharness', 'lifetimes');
    await store.append(ID, [said(0)]);
    await store.delete(ID);
    // One per path the folder is known by (its real path, and the one given when a link lies on the way).
    const first = (await readdir(lifetimes)).sort();
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThanOrEqual(2);
    for (let lifetime = 2; lifetime <= 100; lifetime++) {
      if (lifetime % 10 === 0) await store.append(ID, [said(lifetime)]);
      await store.delete(ID);
    }
    expect((await readdir(lifetimes)).sort()).toEqual(first);
    for (const name of first) expect(await readFile(join(lifetimes, name), 'utf8')).toBe('100\n');
  }, 60_000);
});
