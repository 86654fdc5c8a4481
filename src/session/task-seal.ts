import { join } from 'node:path';
import { ephemeralLifetimes, type Lifetime } from './ephemeral-lifetimes.js';
import type { GrantSeal } from './grant-seal.js';
import type { TaskSessionInfo } from './session-store.js';
import { sessionFileName } from './session-file-name.js';
import { taskSessionInfoOf } from './task-session-info.js';
import { parsedTaskFile, type TaskFileText } from './task-file-text.js';
import { isOneShotTaskInfo } from './one-shot-task.js';
import { UnsealedSessionError } from './unsealed-session-error.js';
import { lifetimeFolders, type SessionFolderPaths } from './session-folder-paths.js';

/**
 * Seals the task files (`<id>.task.json`) a `FileSessionStore` keeps for resume: a task file
 * says which conversation owns a task session (only it may resume the task, and deleting it
 * deletes the task's files), so one planted in the workspace could let a conversation resume
 * a made-up task, or make deleting a conversation delete another. Each file carries, as
 * `mac`, an HMAC-SHA256 under the user's key of the folder's real path and every field.
 * Without a usable key (said once by the {@link GrantSeal}) files are written plain and read
 * unchecked, as before task files were sealed.
 *
 * Deletes: once its owner conversation or its task session was deleted (`GrantSeal.lifetime`),
 * the seal binds both lifetimes, so a task file kept aside and put back after its owner's
 * delete (or its own) names its owner no more: it is refused, and no delete reads it as a
 * task. The owner's lifetime is the one that matters (the ownership ends with the owner's
 * delete, even for a task file moved away while the delete scanned for it); the task's own
 * covers a task session deleted alone. Both 0 seal as before. An ephemeral run's task session
 * has a random lifetime in the process instead of a count (`EphemeralLifetimes`), taken as
 * its task file is sealed: its delete forgets it, and its files then pass no seal anywhere.
 */
export class TaskSeal {
  /**
   * @param seal - the store's seal (its grants' key).
   * @param folder - the store's folder: its real path, which the seals bind, and its named
   * path, which keys its lifetimes with it (`sessionFolderPaths`).
   */
  constructor(
    private readonly seal: GrantSeal,
    private readonly folder: () => Promise<SessionFolderPaths>,
  ) {}

  /** The text of the task file for `info` (its known fields only, sealed when there is a key). */
  async text(info: TaskSessionInfo): Promise<string> {
    const stored = taskSessionInfoOf(info);
    if (!stored) throw new TypeError(`saveTaskInfo: not a task info (string taskId, agentName, description, ownerSessionId; parentSessionId and callId strings or absent): ${JSON.stringify(info)}`);
    const macs = await this.seal.macs();
    if (!macs) return JSON.stringify(stored);
    const paths = await this.folder();
    // The task file is a task session's first write: from it on, an ephemeral run's is sealed for a random lifetime.
    ephemeralLifetimes.adopt(lifetimeFolders(paths), stored.taskId, stored.ownerSessionId);
    return JSON.stringify({ ...stored, mac: macs.sign(taskFacts(paths.folder, stored, await this.lifetimes(paths, stored))) });
  }

  /**
   * What the text of the task file named `name` holds: the task info when it is sealed for
   * this folder and the current lifetimes of its owner and its task (or there is no key to
   * check with) and names this file's task, `'unsealed'` when it is a task info without a
   * valid seal (planted, changed, put back after a delete, or written before task files were
   * sealed) or another task's (a sealed file copied under this name: taken for this task, it
   * would let its owner resume any session), `undefined` when it is no task info at all.
   *
   * @throws {@link UnsealedSessionError} (`what: 'one-shot-task-file'`) for a task file of this
   * file's task without a valid seal that a one-shot run's task's reads as (`isOneShotTaskInfo`):
   * sealed for a lifetime kept only in the process that ran it, it was not planted or changed,
   * and loads nowhere else (nor once deleted), which its refusal says.
   */
  async read(text: string, name: string): Promise<TaskSessionInfo | 'unsealed' | undefined> {
    const found = parsedTaskFile(text);
    if (!found) return undefined;
    if (await this.sealed(found, name)) return found.info;
    if (!namesFile(found.info.taskId, name)) return 'unsealed';
    const paths = await this.folder();
    if (await isOneShotTaskInfo(paths.folder, found.info)) throw new UnsealedSessionError(found.info.taskId, join(paths.named, name), [1], 'one-shot-task-file');
    return 'unsealed';
  }

  /**
   * The task info of the task file named `name` when it names `owner` as its conversation and
   * is sealed (see {@link read}) for the owner's `lifetime`, given by the caller: a delete
   * scanning for the tasks of the conversation it just ended asks with the lifetime that
   * ended. Any other file is `undefined`; only the files naming `owner` cost a lifetime read
   * (their task's), so a scan of a folder of many tasks reads no other conversation's.
   */
  async ownedBy(text: string, name: string, owner: string, lifetime: Lifetime | undefined): Promise<TaskSessionInfo | undefined> {
    const found = parsedTaskFile(text);
    if (found?.info.ownerSessionId !== owner) return undefined;
    return (await this.sealed(found, name, lifetime)) ? found.info : undefined;
  }

  /**
   * The current lifetime of conversation `owner` (see {@link ownedBy}), read once for a scan of
   * many task files rather than once per file; `undefined` without a usable key (nothing to check).
   */
  async ownerLifetime(owner: string): Promise<Lifetime | undefined> {
    if (!(await this.seal.macs())) return undefined;
    return this.seal.lifetime({ ...(await this.folder()), sessionId: owner });
  }

  /** Whether the file's task info names the file's task and is sealed (for the owner's `ownerLifetime` when known, else read). */
  private async sealed({ info, mac }: TaskFileText, name: string, ownerLifetime?: Lifetime): Promise<boolean> {
    if (!namesFile(info.taskId, name)) return false;
    const macs = await this.seal.macs();
    if (!macs) return true;
    const paths = await this.folder();
    return macs.check(taskFacts(paths.folder, info, await this.lifetimes(paths, info, ownerLifetime)), mac);
  }

  /** The lifetimes of the task's owner (`owner` when the caller knows it) and of the task session, read at once. */
  private async lifetimes(paths: SessionFolderPaths, info: TaskSessionInfo, owner?: Lifetime): Promise<TaskLifetimes> {
    const [ownerLifetime, task] = await Promise.all([
      owner ?? this.seal.lifetime({ ...paths, sessionId: info.ownerSessionId }),
      this.seal.lifetime({ ...paths, sessionId: info.taskId }),
    ]);
    return { owner: ownerLifetime, task };
  }
}

/** The lifetimes a task file's seal binds. */
interface TaskLifetimes {
  readonly owner: Lifetime;
  readonly task: Lifetime;
}

/** Whether `name` is the task file of `taskId` (a well-formed id whose file it is). */
function namesFile(taskId: string, name: string): boolean {
  try {
    return sessionFileName(taskId, 'task') === name;
  } catch {
    return false; // not a well-formed id
  }
}

/**
 * What a task file's MAC covers (a missing parent is null); once its owner or its task was
 * deleted, both lifetimes too (both 0 seal as before lifetimes were kept); the parent's call
 * id last, only when there is one: files sealed before it was kept check as they did, and one
 * whose call id was added, changed or removed since its seal fails (the id decides which
 * interrupted call a repair names the task in).
 */
function taskFacts(folder: string, info: TaskSessionInfo, lifetimes: TaskLifetimes): readonly unknown[] {
  const fields = [folder, info.taskId, info.agentName, info.description, info.ownerSessionId, info.parentSessionId ?? null];
  const facts = lifetimes.owner === 0 && lifetimes.task === 0 ? ['rxharness-task-1', ...fields] : ['rxharness-task-2', ...fields, lifetimes.owner, lifetimes.task];
  return info.callId === undefined ? facts : [...facts, { callId: info.callId }];
}
