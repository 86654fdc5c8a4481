/**
 * An ephemeral run deletes each of its tasks' sessions (src/engine/ephemeral-task-sessions.ts).
 * Deleting a task session the store saved must not read every task file of the folder (a
 * task owns no tasks: their owner is always the conversation), or a folder of many tasks
 * pays a full scan per task. Measured without timing: a FIFO planted as a task file blocks
 * whoever opens it, so a delete that reads it does not end.
 */
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, open, writeFile } from 'node:fs/promises';
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

/** Lets a reader blocked on the FIFO go on (it reads an empty file); nothing when none is there. */
async function release(fifo: string): Promise<void> {
  const writer = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
  await writer?.close();
}

describe('FileSessionStore.delete of a task session it saved', () => {
  it('reads no other task file (a planted FIFO among them would block the reader)', async () => {
    const store = new FileSessionStore(ws.dir, { grantKey: KEY });
    await store.saveTaskInfo(task('t1', 'once'));
    await store.append('t1', [{ role: 'user', content: 'look' }]);
    const fifo = join(dir(), 'blocking.task.json');
    execFileSync('mkfifo', [fifo]);
    const deleted = store.delete('t1').then(() => 'deleted');
    let timer: NodeJS.Timeout | undefined;
    try {
      const outcome = await Promise.race([deleted, new Promise((done) => (timer = setTimeout(() => done('still reading the task files'), 2_000)))]);
      expect(outcome).toBe('deleted');
      expect(await store.loadTaskInfo('t1')).toBeUndefined();
      expect(await store.load('t1')).toEqual([]);
    } finally {
      clearTimeout(timer);
      await release(fifo);
      await deleted.catch(() => undefined);
    }
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
