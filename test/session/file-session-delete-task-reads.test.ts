/**
 * An ephemeral run deletes each of its tasks' sessions (src/engine/ephemeral-task-sessions.ts).
 * Deleting a task session the store saved must not read every task file of the folder (a
 * task owns no tasks: their owner is always the conversation), or a folder of many tasks
 * pays a full scan per task. Seen without timing: a scan would also remove a task file that
 * names the task session as its owner.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';

const KEY = 'test grant key';
let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const dir = (): string => join(ws.dir, '.rxharness', 'sessions');
const task = (taskId: string, ownerSessionId: string) => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId });

describe('FileSessionStore.delete of a task session it saved', () => {
  it('reads no other task file: a task file naming it as owner (planted: a task owns no tasks) is left alone', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: KEY });
    await store.saveTaskInfo(task('t1', 'once'));
    await store.append('t1', [{ role: 'user', content: 'look' }]);
    // A scan of the task files would find t2 "owned" by t1 and remove it with t1.
    await writeFile(join(dir(), 't2.task.json'), JSON.stringify(task('t2', 't1')));
    await store.delete('t1');
    expect(await store.loadTaskInfo('t1')).toBeUndefined();
    expect(await store.load('t1')).toEqual([]);
    expect(await readFile(join(dir(), 't2.task.json'), 'utf8')).toContain('"ownerSessionId":"t1"');
  });

  it("a conversation's delete still removes its tasks, whatever task file is planted under its own name", async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: KEY });
    await store.saveTaskInfo(task('t1', 'notes'));
    await mkdir(dir(), { recursive: true });
    await writeFile(join(dir(), 'notes.task.json'), JSON.stringify(task('notes', 'elsewhere'))); // "notes is a task": planted
    await store.delete('notes');
    expect(await store.loadTaskInfo('t1')).toBeUndefined();
  });
});
