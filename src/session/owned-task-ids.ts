import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SESSION_FILE_SUFFIXES } from './session-file-name.js';
import type { TaskSessionInfo } from './session-store.js';
import { errnoOf } from '../errors/errno-of.js';

/**
 * The task infos of the delegated tasks a conversation started, from the task files
 * (`<id>.task.json`) in a `FileSessionStore` folder: those whose `ownerSessionId` is the
 * conversation. Deleting a conversation deletes them too (see `FileSessionStore.delete`), and
 * a load repairing an interrupted `task` call names them (`FileSessionStore.listTaskInfos`).
 * The folder is untrusted: a file `read` does not answer (not a task info, not sealed by
 * the store, or a file whose `taskId` is not the one its name is for: `TaskSeal.read`) is
 * passed over, so a delete never reaches a session that is not the conversation's task.
 *
 * The way to `dir` is not checked here: a delete asking checked it already in its turn
 * (`surveyConfinedFiles`, before anything was written), and a second walk cost a real path
 * and a look at every folder on the way per delete. A link swapped in since can show no more
 * than names: each file is read confined (`read`), and one that is not answers nothing.
 *
 * @param dir the folder (a delete checked its way in the same operation).
 * @param read reads one task file of the folder confined as the store reads it, and answers
 * the task info it holds when the store sealed it for that file's name.
 * @param newest when given, only the task files most recently written, at most this many, are
 * read (newest first, by their times: `lstat`, no file's contents): a listing for a repair,
 * whose tasks were saved in the turn it repairs, reads a bounded part of a folder of thousands.
 * A delete passes none: it must find every task.
 */
export async function ownedTaskInfos(
  dir: string,
  ownerSessionId: string,
  read: (name: string) => Promise<TaskSessionInfo | undefined>,
  newest?: number,
): Promise<TaskSessionInfo[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return [];
    throw e;
  }
  const tasks = names.filter((name) => name.endsWith(SESSION_FILE_SUFFIXES.task));
  const chosen = newest === undefined || tasks.length <= newest ? tasks : await newestOf(dir, tasks, newest);
  const owned: TaskSessionInfo[] = [];
  for (const name of chosen) {
    const info = await readInfo(read, name);
    if (info?.ownerSessionId === ownerSessionId && info.taskId !== ownerSessionId) owned.push(info);
  }
  return owned;
}

/** The `limit` files of `names` in `dir` written last, newest first; one gone meanwhile (or unreadable) counts as oldest. */
async function newestOf(dir: string, names: readonly string[], limit: number): Promise<string[]> {
  const timed = await Promise.all(names.map(async (name) => ({ name, at: (await lstat(join(dir, name)).catch(() => undefined))?.mtimeMs ?? -Infinity })));
  return timed
    .sort((a, b) => b.at - a.at)
    .slice(0, limit)
    .map((t) => t.name);
}

async function readInfo(read: (name: string) => Promise<TaskSessionInfo | undefined>, name: string): Promise<TaskSessionInfo | undefined> {
  try {
    return await read(name);
  } catch {
    return undefined; // gone meanwhile, a planted link: not a task of the conversation
  }
}


/** How many task sessions a store remembers starting (beyond that, deleting one scans the folder, as for one from before a restart). */
const MAX_STARTED = 10_000;

/**
 * The task sessions a `FileSessionStore` saved the task info of in this process, so that
 * deleting one (an ephemeral run deletes each of its tasks' sessions) need not read every
 * task file of the folder: a task session owns no tasks, since every task's owner is its
 * conversation (`ownerSessionId`), never another task. Kept in memory, from the store's own
 * writes: a file planted in the folder cannot make a conversation's delete skip its tasks.
 */
export class StartedTasks {
  private readonly ids = new Set<string>();

  /** Remembers the task of `info` (not one naming itself as its owner, which no run saves). */
  add(info: TaskSessionInfo): void {
    if (info.ownerSessionId === info.taskId) return;
    this.ids.delete(info.taskId);
    if (this.ids.size >= MAX_STARTED) this.ids.delete(this.ids.values().next().value!);
    this.ids.add(info.taskId);
  }

  /** Whether `sessionId` is a task session remembered (forgotten now: it is being deleted). */
  take(sessionId: string): boolean {
    return this.ids.delete(sessionId);
  }
}
