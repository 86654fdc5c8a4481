/**
 * A task's info is saved as the task starts; its session is deleted when the run ends
 * (an ephemeral run deletes each of its tasks', src/engine/ephemeral-task-sessions.ts), which
 * can be while the save is still on its way (a run stopped as a task starts); its
 * conversation can be deleted then too. A delete asked after the save must find the task
 * file and remove it: left behind, it would outlive the session for ever, naming its owner.
 * Neither call is awaited before the other is made, as in a run.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();

const task = (taskId: string, ownerSessionId: string) => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId });
const files = async (): Promise<string[]> => (await readdir(join(ws.dir, '.rxharness', 'sessions'))).sort();

describe('FileSessionStore.delete while the task info is being saved', () => {
  it("of the task's session: the task file is removed once saved", async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    const saved = store.saveTaskInfo(task('t1', 'notes'));
    await store.delete('t1');
    await saved;
    expect(await store.loadTaskInfo('t1')).toBeUndefined();
    expect(await files()).toEqual([]);
  });

  it("of its conversation: the task's file is removed with the conversation's", async () => {
    // The key file made by the save (a fresh home): the slowest save, still on its way as the conversation's files go.
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    const saved = store.saveTaskInfo(task('t1', 'notes'));
    await store.delete('notes');
    await saved;
    expect(await store.loadTaskInfo('t1')).toBeUndefined();
    expect(await files()).toEqual([]);
  });

  it('a task saved again after its delete is kept (the delete was asked first)', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await store.saveTaskInfo(task('t1', 'notes'));
    const deleted = store.delete('t1');
    await store.saveTaskInfo(task('t1', 'notes'));
    await deleted;
    expect(await store.loadTaskInfo('t1')).toEqual(task('t1', 'notes'));
  });
});
