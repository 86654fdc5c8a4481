import { basename, join } from 'node:path';
import { writeConfinedFile } from './confined-file.js';
import { NotRegularFileError } from './not-regular-file-error.js';
import { ownedTaskIds, StartedTasks } from './owned-task-ids.js';
import type { SessionFolder } from './session-folder.js';
import type { SessionQueues } from './session-queues.js';
import { SessionFileTooLargeError } from './session-file-too-large-error.js';
import type { TaskSessionInfo } from './session-store.js';
import type { TaskSeal } from './task-seal.js';
import { UnsafeLinkError } from './unsafe-link-error.js';
import { UnsealedSessionError } from './unsealed-session-error.js';

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

  /** What {@link save} stored for the task (see `FileSessionStore.loadTaskInfo`). */
  async load(taskId: string): Promise<TaskSessionInfo | undefined> {
    const file = this.folder.file(taskId, 'task');
    let text: string;
    try {
      text = await this.folder.read(file);
    } catch (e) {
      // Say why (a planted link, FIFO, folder or huge file), rather than act as if the task were unknown.
      if (e instanceof UnsafeLinkError || NotRegularFileError.isInstance(e) || SessionFileTooLargeError.isInstance(e)) throw e;
      return undefined;
    }
    const info = await this.seal.read(text, basename(file));
    if (info === 'unsealed') throw new UnsealedSessionError(taskId, file, [1], 'task');
    return info;
  }

  /** Whether `sessionId` is a task session this store saved, which owns no tasks (forgotten now: it is being deleted). */
  takeStarted(sessionId: string): boolean {
    return this.started.take(sessionId);
  }

  /** The tasks whose sealed task file names `sessionId` as their owner (forgotten as started: they are being deleted). */
  async ownedBy(sessionId: string): Promise<string[]> {
    // Only task files this store sealed: a planted one must not make a delete remove another session.
    const info = async (name: string): Promise<TaskSessionInfo | undefined> => {
      const found = await this.seal.read(await this.folder.read(join(this.folder.dir, name)), name);
      return found === 'unsealed' ? undefined : found;
    };
    const ids = await ownedTaskIds(this.folder.root, this.folder.dir, sessionId, info);
    for (const taskId of ids) this.started.take(taskId);
    return ids;
  }
}
