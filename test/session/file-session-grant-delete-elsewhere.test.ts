/**
 * Two `FileSessionStore`s on one folder in one process (two engines, each with its store): a
 * run's "always" grant is saved in the background, and may still be on its way when the run
 * ends and the other store deletes the conversation. Saved after that delete, it would come
 * back as a grant of a new conversation of the id. Every store of the process orders a
 * session's writes in one queue: the save asked before the delete lands before it, and goes.
 */
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
const grant = { toolName: 'bash', subject: 'rm -rf build' };
const hello = [{ role: 'user' as const, content: 'hello' }];

describe('FileSessionStore: a grant save on its way while another store of the folder deletes the conversation', () => {
  it('the grant goes with the conversation', async () => {
    // The key read from its file in the home folder, as by default: the first signing waits for it.
    const a = new FileSessionStore(ws.dir, { home: ws.home });
    const b = new FileSessionStore(ws.dir, { home: ws.home });
    await b.append('notes', hello);
    // A run's grants, still on their way as it ends: each save waits for the one before.
    const saved = Promise.all(['a', 'b', 'c', 'd', 'e'].map((s) => a.saveGrant('notes', { toolName: 'bash', subject: `rm -rf ${s}` })));
    await b.delete('notes');
    await saved;
    expect(await new FileSessionStore(ws.dir, { home: ws.home }).loadGrants('notes')).toEqual([]);
    expect(await b.loadGrants('notes')).toEqual([]);
  });

  it('a grant saved after the delete (a new conversation of the id) is kept', async () => {
    const a = new FileSessionStore(ws.dir, { home: ws.home });
    const b = new FileSessionStore(ws.dir, { home: ws.home });
    await a.append('notes', hello);
    await b.delete('notes');
    await a.append('notes', hello);
    await a.saveGrant('notes', grant);
    expect(await b.loadGrants('notes')).toEqual([grant]);
  });
});
