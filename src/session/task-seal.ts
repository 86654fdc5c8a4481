import type { GrantSeal } from './grant-seal.js';
import type { TaskSessionInfo } from './session-store.js';
import { sessionFileName } from './session-file-name.js';
import { taskSessionInfoOf } from './task-session-info.js';

/**
 * Seals the task files (`<id>.task.json`) a `FileSessionStore` keeps for resume: a task file
 * says which conversation owns a task session (only it may resume the task, and deleting it
 * deletes the task's files), so one planted in the workspace could let a conversation resume
 * a made-up task, or make deleting a conversation delete another. Each file carries, as
 * `mac`, an HMAC-SHA256 under the user's key of the folder's real path and every field.
 * Without a usable key (said once by the {@link GrantSeal}) files are written plain and read
 * unchecked, as before task files were sealed.
 */
export class TaskSeal {
  /**
   * @param seal - the store's seal (its grants' key).
   * @param folder - the store's folder by its real path.
   */
  constructor(
    private readonly seal: GrantSeal,
    private readonly folder: () => Promise<string>,
  ) {}

  /** The text of the task file for `info` (its known fields only, sealed when there is a key). */
  async text(info: TaskSessionInfo): Promise<string> {
    const stored = taskSessionInfoOf(info);
    if (!stored) throw new TypeError(`saveTaskInfo: not a task info (string taskId, agentName, description, ownerSessionId; parentSessionId a string or absent): ${JSON.stringify(info)}`);
    const macs = await this.seal.macs();
    return JSON.stringify(macs ? { ...stored, mac: macs.sign(taskFacts(await this.folder(), stored)) } : stored);
  }

  /**
   * What the text of the task file named `name` holds: the task info when it is sealed for
   * this folder (or there is no key to check with) and names this file's task, `'unsealed'`
   * when it is a task info without a valid seal (planted, changed, or written before task
   * files were sealed) or another task's (a sealed file copied under this name: taken for
   * this task, it would let its owner resume any session), `undefined` when it is no task
   * info at all.
   */
  async read(text: string, name: string): Promise<TaskSessionInfo | 'unsealed' | undefined> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    const info = taskSessionInfoOf(value);
    if (!info) return undefined;
    if (!namesFile(info.taskId, name)) return 'unsealed';
    const macs = await this.seal.macs();
    if (!macs) return info;
    return macs.check(taskFacts(await this.folder(), info), (value as { mac?: unknown }).mac) ? info : 'unsealed';
  }
}

/** Whether `name` is the task file of `taskId` (a well-formed id whose file it is). */
function namesFile(taskId: string, name: string): boolean {
  try {
    return sessionFileName(taskId, 'task') === name;
  } catch {
    return false; // not a well-formed id
  }
}

/** What a task file's MAC covers (a missing parent is null). */
function taskFacts(folder: string, info: TaskSessionInfo): readonly unknown[] {
  return ['rxharness-task-1', folder, info.taskId, info.agentName, info.description, info.ownerSessionId, info.parentSessionId ?? null];
}
