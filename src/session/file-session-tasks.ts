import { basename, join } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';
import type { Lifetime } from './ephemeral-lifetimes.js';
import { withRealPath, writeConfinedFile, type ConfinedRoot } from './confined-file.js';
import { ownedTaskInfos, StartedTasks } from './owned-task-ids.js';
import type { SessionFolder } from './session-folder.js';
import type { SessionQueues } from './session-queues.js';
import type { TaskSessionInfo } from './session-store.js';
import type { TaskSeal } from './task-seal.js';
import { UnsealedSessionError } from './unsealed-session-error.js';

/**
 * How many of the task files written last `FileSessionStore.listTaskInfos` reads: far more than
 * one turn saves (a `multitask` holds at most 200 by default), and a bounded cost in a folder of
 * many thousand tasks.
 */
export const MAX_LISTED_TASK_FILES = 1_000;

/**
 * The task files of a `FileSessionStore` (`<taskId>.task.json`, sealed: `task-seal.ts`): what
 * resuming a delegated task needs, and which tasks a conversation owns, deleted with it.
 */
export class FileSessionTasks {
  /** The task sessions saved in this process: deleting one scans no task file. */
  private readonly started = new StartedTasks();

  constructor(
    private readonly folder: SessionFolder,
    private readonly queues: SessionQueues,
    private readonly seal: TaskSeal,
  ) {}

  /**
   * Writes the task file (a temporary file renamed over it: whole or absent), in the queues
   * of the task's session and of its conversation, where `FileSessionStore.delete` removes
   * files: a delete of either asked after the save finds the file and removes it (an ephemeral
   * run deletes its tasks' sessions as it ends, maybe while one is still being saved), and
   * one asked before does not remove it.
   */
  async save(info: TaskSessionInfo): Promise<void> {
    await this.queues.enqueueAll([info.taskId, info.ownerSessionId], () => this.write(info));
  }

  private async write(info: TaskSessionInfo): Promise<void> {
    await this.folder.mkdir();
    await writeConfinedFile(this.folder.root, this.folder.file(info.taskId, 'task'), await this.seal.text(info));
    this.started.add(info);
  }

  /**
   * What {@link save} stored for the task (see `FileSessionStore.loadTaskInfo`): `undefined`
   * only when it has no task file. Any other file under its name fails, naming it, and is
   * left as it is: a planted link, FIFO, folder or huge file with their errors; one that
   * cannot be read with its reason; one without a valid seal, and one that is no task info
   * (empty, cut, corrupt), with an {@link UnsealedSessionError} (`what: 'task'`), whose message
   * says to start the task anew and delete the file, rather than "unknown task".
   */
  async load(taskId: string): Promise<TaskSessionInfo | undefined> {
    const file = this.folder.file(taskId, 'task');
    let text: string;
    try {
      text = await this.folder.read(file);
    } catch (e) {
      if (errnoOf(e) === 'ENOENT') return undefined;
      throw e;
    }
    const info = await this.seal.read(text, basename(file));
    // A file the store wrote is whole (renamed into place): one that holds no task info was
    // changed since, like one whose seal fails, and says as much.
    if (info === 'unsealed' || info === undefined) throw new UnsealedSessionError(taskId, file, [1], 'task');
    return info;
  }

  /** Whether `sessionId` is a task session this store saved, which owns no tasks (forgotten now: it is being deleted). */
  takeStarted(sessionId: string): boolean {
    return this.started.take(sessionId);
  }

  /**
   * The tasks whose sealed task file names `sessionId` as their owner (forgotten as started:
   * they are being deleted). `lifetime` is the conversation's lifetime their seals bind: the
   * one its delete just ended (`undefined` to read it). Only the files naming it are checked.
   * Asked in a delete's turn, once its survey checked the way to the folder (`ownedTaskInfos`
   * does not check it again).
   */
  async ownedBy(sessionId: string, lifetime: Lifetime | undefined): Promise<string[]> {
    const ids = (await this.infosOf(sessionId, lifetime)).map((info) => info.taskId);
    for (const taskId of ids) this.started.take(taskId);
    return ids;
  }

  /**
   * The task infos of conversation `sessionId` among the {@link MAX_LISTED_TASK_FILES} task files
   * written last (`FileSessionStore.listTaskInfos`), its lifetime read once for them all.
   */
  async recentInfosOf(sessionId: string): Promise<TaskSessionInfo[]> {
    return this.infosOf(sessionId, await this.seal.ownerLifetime(sessionId), MAX_LISTED_TASK_FILES);
  }

  /**
   * The task infos of the sealed task files naming `sessionId` as their owner, sealed for its
   * `lifetime` (`undefined`: its current one, read): see {@link ownedBy}. Each file is read
   * confined, so a link swapped in on the way shows no more than names. With `newest`, only
   * that many of the folder's task files written last are read (`ownedTaskInfos`).
   */
  async infosOf(sessionId: string, lifetime?: Lifetime, newest?: number): Promise<TaskSessionInfo[]> {
    // The workspace's real path looked up once for the scan (at its first task file), not once per file.
    let root: Promise<ConfinedRoot> | undefined;
    // Only task files this store sealed: a planted one must not make a delete remove another session.
    const info = async (name: string): Promise<TaskSessionInfo | undefined> => {
      root ??= withRealPath(this.folder.root);
      return this.seal.ownedBy(await this.folder.read(join(this.folder.dir, name), await root), name, sessionId, lifetime);
    };
    return ownedTaskInfos(this.folder.dir, sessionId, info, newest);
  }
}
