/**
 * A conversation's lifetime is kept under both paths of its store's folder: the one the store
 * was opened with (the workspace's real path, then `.rxharness/sessions` by its text) and the
 * folder's real path. A link on the way (`.rxharness -> elsewhere`) that the model moves aside
 * or retargets during the delete, then puts back, no longer makes the delete end the lifetime
 * of a place no read uses: the deleted conversation's "always" grant and messages are refused.
 * Stores opened through different paths to the folder still see each other's deletes.
 */
import { cp, mkdir, rename, rm, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ephemeralLifetimes } from '../../src/session/ephemeral-lifetimes.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { UnsealedSessionError } from '../../src/session/unsealed-session-error.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const GRANT = { toolName: 'bash', subject: 'git push --force' };
const hi = [{ role: 'user' as const, content: 'hi' }];
const link = () => join(ws.dir, '.rxharness');

/** What the model does to the link `.rxharness` during the delete, and undoes after it. */
const attacks = {
  'the link moved aside': {
    during: () => rename(link(), join(ws.dir, 'link-kept')),
    after: () => rename(join(ws.dir, 'link-kept'), link()),
  },
  'the link retargeted to another folder': {
    during: async () => {
      await mkdir(join(ws.dir, 'other'));
      await unlink(link());
      await symlink('other', link());
    },
    after: async () => {
      await unlink(link());
      await symlink('elsewhere', link());
    },
  },
};

describe.each([
  ['the key file in the home folder', (workspace: string, options: { dir?: string } = {}) => new FileSessionStore(workspace, { ...options, home: ws.home })],
  ['a key given in code', (workspace: string, options: { dir?: string } = {}) => new FileSessionStore(workspace, { ...options, grantKey: 'k' })],
])('with %s', (_key, make) => {
  describe.each(Object.entries(attacks))('a delete with %s, then put back', (_attack, { during, after }) => {
    it('refuses the deleted conversation\'s grant and messages, for the store that deleted it and a new one', async () => {
      await mkdir(join(ws.dir, 'elsewhere'));
      await symlink('elsewhere', link());
      const store = make(ws.dir);
      await store.append('talk', hi);
      await store.saveGrant('talk', GRANT);
      await during();
      await store.delete('talk');
      await after();

      for (const fresh of [store, make(ws.dir)]) {
        expect(await fresh.loadGrants('talk')).not.toContainEqual(GRANT);
        await expect(fresh.load('talk')).rejects.toThrow(/deleted/);
      }
    });

    it('refuses an ephemeral run\'s task session (its random lifetime is forgotten under both paths)', async () => {
      await mkdir(join(ws.dir, 'elsewhere'));
      await symlink('elsewhere', link());
      const owner = `one-shot-${Math.random()}`;
      ephemeralLifetimes.open(owner);
      onTestFinished(() => ephemeralLifetimes.close(owner));
      const store = make(ws.dir);
      await store.saveTaskInfo({ taskId: 'task_1', agentName: 'beta', description: 'd', ownerSessionId: owner });
      await store.append('task_1', hi);
      await store.saveGrant('task_1', GRANT);
      await during();
      await store.delete('task_1');
      await after();

      for (const fresh of [store, make(ws.dir)]) {
        await expect(fresh.loadTaskInfo('task_1')).rejects.toBeInstanceOf(UnsealedSessionError);
        await expect(fresh.load('task_1')).rejects.toBeInstanceOf(UnsealedSessionError);
        expect(await fresh.loadGrants('task_1')).not.toContainEqual(GRANT);
      }
    });
  });

  it('a store opened through a link to the workspace sees the delete another store made while the link was moved aside', async () => {
    await mkdir(join(ws.dir, 'elsewhere'));
    await symlink('elsewhere', link());
    const linkedWorkspace = `${ws.dir}-linked`;
    await symlink(ws.dir, linkedWorkspace);
    onTestFinished(() => rm(linkedWorkspace, { force: true }));
    const other = make(linkedWorkspace);
    await other.append('talk', hi);
    await other.saveGrant('talk', GRANT);
    await attacks['the link moved aside'].during();
    await make(ws.dir).delete('talk');
    await attacks['the link moved aside'].after();

    expect(await other.loadGrants('talk')).not.toContainEqual(GRANT);
    await expect(other.load('talk')).rejects.toThrow(/deleted/);
  });

  it('a delete through one path to the folder (options.dir through a link) refuses what another path wrote, kept aside and put back', async () => {
    await mkdir(join(ws.dir, '.rxharness', 'sessions'), { recursive: true });
    await symlink('.rxharness', join(ws.dir, 'alias'));
    const aliased = make(ws.dir, { dir: join(ws.dir, 'alias', 'sessions') });
    await aliased.append('talk', hi);
    await aliased.saveGrant('talk', GRANT);
    const files = ['talk.jsonl', 'talk.grants.jsonl'];
    await mkdir(join(ws.dir, 'kept'));
    for (const name of files) await cp(join(aliased.dir, name), join(ws.dir, 'kept', name));
    await make(ws.dir).delete('talk');
    for (const name of files) await cp(join(ws.dir, 'kept', name), join(aliased.dir, name));

    for (const fresh of [aliased, make(ws.dir, { dir: join(ws.dir, 'alias', 'sessions') })]) {
      expect(await fresh.loadGrants('talk')).not.toContainEqual(GRANT);
      await expect(fresh.load('talk')).rejects.toThrow(/deleted/);
    }
  });
});
