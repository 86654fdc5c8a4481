/**
 * Deleting a conversation that owns hundreds of tasks removes every task's files (a few at a
 * time since a1's finding: one by one, 10,000 took minutes), and a task whose removal leaves a
 * folder planted under its file name fails the delete as before, naming that folder, once
 * everything else is gone.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { plantFolder } from './planted-fifo-kit.js';

const TASKS = 300;
let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const folder = (): string => join(ws.dir, '.rxharness', 'sessions');
const taskIds = Array.from({ length: TASKS }, (_, i) => `task_${i}`);

/** A conversation `c1` owning {@link TASKS} tasks, each with a task file and a transcript. */
async function conversationWithTasks(store: FileSessionStore): Promise<void> {
  await store.append('c1', [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'ok' }]);
  for (let i = 0; i < TASKS; i += 50) {
    await Promise.all(
      taskIds.slice(i, i + 50).map(async (taskId) => {
        await store.saveTaskInfo({ taskId, agentName: 'beta', description: 'look', ownerSessionId: 'c1', parentSessionId: 'c1' });
        await store.append(taskId, [{ role: 'user', content: 'p' }, { role: 'assistant', content: 'a' }]);
      }),
    );
  }
}

describe('FileSessionStore: deleting a conversation with many tasks', () => {
  it(`removes all ${TASKS} tasks' files and task infos`, async () => {
    await conversationWithTasks(new FileSessionStore(ws.dir, { grantKey: 'k' }));
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' }); // a fresh store: the tasks are found by the folder's scan
    await store.delete('c1');
    expect((await readdir(folder())).filter((n) => n.startsWith('task_') || n.startsWith('c1'))).toEqual([]);
    for (const taskId of taskIds) expect(await store.loadTaskInfo(taskId)).toBeUndefined();
  });

  it('a folder planted under one task\'s transcript fails the delete naming it; every other task is removed', async () => {
    await conversationWithTasks(new FileSessionStore(ws.dir, { grantKey: 'k' }));
    const planted = await plantFolder(join(folder(), 'task_150.jsonl'));
    const store = new FileSessionStore(ws.dir, { grantKey: 'k' });
    await expect(store.delete('c1')).rejects.toMatchObject({ name: 'NotRegularFileError', file: planted, kind: 'directory' });
    expect(existsSync(planted)).toBe(true);
    expect((await readdir(folder())).filter((n) => n.startsWith('task_') || n.startsWith('c1'))).toEqual(['task_150.jsonl']);
  });
});
