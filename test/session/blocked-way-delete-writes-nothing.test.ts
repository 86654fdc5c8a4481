/**
 * A delete whose way to the sessions folder is blocked (the folder moved aside and a file, or
 * a link to a file, put in its place) says "Nothing in it was written or removed": it must
 * hold for the conversation's lifetime too. It used to end the lifetime first, under the path
 * the file stands at (the folder's named and real path alike), so once the folder was put
 * back, its conversation, never removed, loaded and granted nothing.
 */
import { readdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const grant = { toolName: 'bash', subject: 'npm test' };

/** The lifetime files kept in the home folder (none when its folder was never made). */
const lifetimeFiles = (): Promise<string[]> => readdir(join(ws.home, '.rxharness', 'lifetimes')).catch(() => []);

describe('a delete through a blocked way writes nothing', () => {
  for (const blocker of ['a file', 'a link to a file'] as const) {
    it(`.rxharness/sessions moved aside, ${blocker} in its place: no lifetime ends, and the folder put back loads and grants as before`, async () => {
      const store = new FileSessionStore(ws.dir, { home: ws.home });
      await store.append('talk', [{ role: 'user', content: 'kept' }]);
      await store.saveGrant('talk', grant);
      const sessions = join(ws.dir, '.rxharness', 'sessions');
      await rename(sessions, join(ws.dir, 'aside'));
      if (blocker === 'a file') await writeFile(sessions, 'mine');
      else {
        await writeFile(join(ws.dir, 'notes.txt'), 'mine');
        await symlink('../notes.txt', sessions);
      }
      await expect(store.delete('talk')).rejects.toThrow(/Nothing in it was written or removed/);
      expect(await lifetimeFiles()).toEqual([]);
      await rename(sessions, join(ws.dir, 'blocker'));
      await rename(join(ws.dir, 'aside'), sessions);
      const again = new FileSessionStore(ws.dir, { home: ws.home });
      expect(await again.load('talk')).toEqual([{ role: 'user', content: 'kept' }]);
      expect(await again.loadGrants('talk')).toEqual([grant]);
    });
  }
});
