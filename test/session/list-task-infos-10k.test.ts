/**
 * `FileSessionStore.listTaskInfos` (asked to name the tasks of a delegating call cut before it
 * answered) read every task file of the folder, each with its seal's lifetime reads: seconds
 * with 10,000 of them. It now reads only the task files written last (the cut call's were
 * saved in the turn being closed), at most `MAX_LISTED_TASK_FILES`, newest first. Seen by
 * the files opened and by which task is listed, not by timing.
 */
import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MAX_LISTED_TASK_FILES } from '../../src/session/file-session-tasks.js';
import type { TaskSessionInfo } from '../../src/session/session-store.js';
import { fsCallsOf } from './fs-call-count.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();

const info = (taskId: string, callId: string): TaskSessionInfo => ({ taskId, agentName: 'alpha', description: 'look', ownerSessionId: 's1', parentSessionId: 's1', callId });

describe('FileSessionStore.listTaskInfos in a folder of 10,000 task files', () => {
  it('opens at most MAX_LISTED_TASK_FILES of them, the newest, and lists the task saved last', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: 'list-10k-test-key' });
    await store.append('s1', [{ role: 'user', content: 'start' }]);
    // A task of the conversation saved long ago: its file is among the oldest.
    await store.saveTaskInfo(info('task_old', 'call_old'));
    const old = join(store.dir, 'task_old.task.json');
    await utimes(old, new Date('2001-01-01'), new Date('2001-01-01'));
    // 10,000 other task files (another conversation's, or left by an older version).
    for (let i = 0; i < 10; i++) {
      await Promise.all(Array.from({ length: 1000 }, (_, j) => writeFile(join(store.dir, `task_${i * 1000 + j}.task.json`), '{}')));
    }
    // The cut call's task, saved in the turn being closed: the newest.
    await store.saveTaskInfo(info('task_new', 'call_cut'));
    const future = new Date(Date.now() + 3_600_000);
    await utimes(join(store.dir, 'task_new.task.json'), future, future);

    const { result, calls } = await fsCallsOf(() => new FileSessionStore(ws.dir, { grantKey: 'list-10k-test-key' }).listTaskInfos('s1'));
    expect(result).toEqual([info('task_new', 'call_cut')]);
    const opened = calls.filter((c) => c.name === 'open' && c.path.endsWith('.task.json'));
    expect(opened.length).toBeLessThanOrEqual(MAX_LISTED_TASK_FILES);
    expect(opened.map((c) => c.path)).toContain(join(store.dir, 'task_new.task.json'));
    // The old task is the conversation's and sealed: only its age leaves it out.
    expect(await store.loadTaskInfo('task_old')).toEqual(info('task_old', 'call_old'));
  }, 120_000);
});
