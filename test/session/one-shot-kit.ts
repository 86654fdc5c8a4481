/**
 * What the tests of a one-shot run's task refusals share: file stores of one workspace and
 * home, and a one-shot run's task session written and deleted as the engine does it, some of
 * its files put back after.
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { ephemeralLifetimes } from '../../src/session/ephemeral-lifetimes.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { UnsealedSessionError } from '../../src/session/unsealed-session-error.js';

/** The transcript every task and conversation of these tests holds. */
export const said = [{ role: 'user' as const, content: 'scan the repo' }, { role: 'assistant' as const, content: 'done' }];

/** The refusal `p` ends with, or `undefined` when it loads. */
export const refusal = (p: Promise<unknown>): Promise<UnsealedSessionError | undefined> => p.then(() => undefined, (e: unknown) => e as UnsealedSessionError);

/** File stores of the workspace and home `ws` gives (per test), and one-shot task sessions put back in them. */
export function oneShotKit(ws: { readonly dir: string; readonly home: string }) {
  const byFile = (trustUnsealed?: string[]): FileSessionStore => new FileSessionStore(ws.dir, { home: ws.home, ...(trustUnsealed ? { trustUnsealed } : {}) });
  /** A one-shot run's task session as the engine writes and deletes it, the files named `kept` copied aside before the delete and put back after it. */
  const putBackOneShotTask = async (kept: readonly ('jsonl' | 'task.json')[]): Promise<{ taskId: string; dir: string }> => {
    const store = byFile();
    const owner = `ses_${randomUUID()}`;
    const taskId = `task_${randomUUID()}`;
    ephemeralLifetimes.open(owner);
    await store.saveTaskInfo({ taskId, agentName: 'beta', description: 'scan', ownerSessionId: owner });
    await store.append(taskId, said);
    const aside = await mkdtemp(join(tmpdir(), 'rxharness-aside-'));
    onTestFinished(() => rm(aside, { recursive: true, force: true }));
    for (const ext of kept) await cp(join(store.dir, `${taskId}.${ext}`), join(aside, `${taskId}.${ext}`));
    ephemeralLifetimes.close(owner);
    await store.delete(taskId);
    for (const ext of kept) await cp(join(aside, `${taskId}.${ext}`), join(store.dir, `${taskId}.${ext}`));
    return { taskId, dir: store.dir };
  };
  return { byFile, putBackOneShotTask };
}

/**
 * A task of a conversation that stored its transcript (its id of the form a one-shot run's has),
 * saved through `store` as the engine saves it, then its transcript changed on disk (`done`
 * made `DONE`): a sealed task file of a real conversation over a history whose seal fails.
 * Answers the task's id.
 */
export async function changedTaskOfConversation(store: FileSessionStore): Promise<string> {
  const owner = `ses_${randomUUID()}`;
  await store.append(owner, said);
  const taskId = `task_${randomUUID()}`;
  await store.saveTaskInfo({ taskId, agentName: 'beta', description: 'scan', ownerSessionId: owner });
  await store.append(taskId, said);
  const file = join(store.dir, `${taskId}.jsonl`);
  await writeFile(file, (await readFile(file, 'utf8')).replace('done', 'DONE'));
  return taskId;
}
