/**
 * Claims and releases of the session lock file in one process: many at once leave no lock
 * behind and never hold a session twice, and a release removes only its own lock.
 */
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { sessionLockFile } from '../../src/session/session-lock-file.js';
import { messagesFileStem } from '../../src/session/session-file-name.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();
const KEY = { grantKey: 'lock-test-key' };

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('session lock files within one process', () => {
  it('200 concurrent claim and release cycles through two paths to one folder: never two holders, no lock left', async () => {
    // A link above the workspace is a second path to the same folder: this process's own
    // claims (keyed by path) do not see each other, so only the lock file keeps them apart.
    const alias = `${fresh.ws.dir}-alias`;
    await symlink(fresh.ws.dir, alias);
    try {
      const stores = [new FileSessionStore(fresh.ws.dir, KEY), new FileSessionStore(alias, KEY)];
      // 20 rounds of 10 claims at once, each round's holders releasing as the next round claims.
      // A holder keeps the session until every claim of its round has answered, so two
      // holders of one session at once would overlap, and `current` would see it.
      const current = new Set<string>();
      let overlaps = 0;
      let grants = 0;
      let releasing: Promise<void> = Promise.resolve();
      for (let round = 0; round < 20; round++) {
        const claims = await Promise.all(
          Array.from({ length: 10 }, async (_, i) => {
            const id = i < 7 ? 's' : 'other';
            const claim = await stores[i % 2]!.claim(id, `run_${round}_${i}`);
            if (claim.granted) {
              grants++;
              if (current.has(id)) overlaps++;
              current.add(id);
            }
            return { id, claim };
          }),
        );
        await releasing;
        releasing = tick().then(() => {
          for (const { id, claim } of claims) {
            if (!claim.granted) continue;
            current.delete(id); // before the release, which frees the session at once (synchronously)
            claim.release();
            claim.release(); // twice: harmless
          }
        });
      }
      await releasing;
      expect(overlaps).toBe(0);
      expect(grants).toBeGreaterThan(0);
      expect(await readdir(stores[0]!.dir)).toEqual([]);
      for (const store of stores) {
        const again = await store.claim('s', 'run_last');
        expect(again.granted).toBe(true);
        if (again.granted) again.release();
      }
    } finally {
      await rm(alias);
    }
  });

  it('a release leaves a lock someone else holds now, whoever removed its own', async () => {
    const store = new FileSessionStore(fresh.ws.dir, KEY);
    const lock = sessionLockFile(store.dir, 's');
    const first = await store.claim('s', 'run_first');
    expect(first.granted).toBe(true);
    // Its lock removed by hand and taken by another process since.
    await rm(lock);
    const theirs = JSON.stringify({ owner: 'run_theirs', pid: 999_999_999, host: 'far.example', startedAt: 1, token: 't' });
    await writeFile(lock, theirs);
    if (first.granted) first.release();
    expect(await readFile(lock, 'utf8')).toBe(theirs);

    // And a second release of a claim whose session was taken again since.
    await rm(lock);
    const second = await store.claim('s', 'run_second');
    const third = second.granted ? (second.release(), await store.claim('s', 'run_third')) : second;
    expect(third.granted).toBe(true);
    if (second.granted) second.release();
    expect(JSON.parse(await readFile(lock, 'utf8'))).toMatchObject({ owner: 'run_third' });
    if (third.granted) third.release();
    expect(await readdir(store.dir)).toEqual([]);
  });

  it('a lock is no session file: listing and loading while a session is claimed see only the sessions', async () => {
    const store = new FileSessionStore(fresh.ws.dir, KEY);
    await store.append('Notes', [{ role: 'user', content: 'hi' }]);
    const claims = await Promise.all(['Notes', 'notes', 'x.archive'].map((id) => store.claim(id, `run_${id}`)));
    const names = await readdir(store.dir);
    expect(names.filter((n) => n.endsWith('.lock')).sort()).toEqual(['notes.lock', '~4e6f746573.lock', '~782e61726368697665.lock']);
    expect(names.map(messagesFileStem).filter((stem) => stem !== undefined)).toEqual(['~4e6f746573']);
    expect((await store.list()).map((s) => s.sessionId)).toEqual(['Notes']);
    for (const claim of claims) if (claim.granted) claim.release();
    expect((await readdir(store.dir)).filter((n) => n.endsWith('.lock'))).toEqual([]);
  });
});
