import { createHash, randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';

/** The most bytes a lifetime file holds: a decimal count and a newline (more is no file of ours). */
const MAX_BYTES = 24;

/** A lifetime file's whole text as {@link ConversationLifetimes.end} writes it. */
const LIFETIME_TEXT = /^(0|[1-9][0-9]{0,14})\n$/;

/** The highest count {@link LIFETIME_TEXT} accepts: {@link ConversationLifetimes.end} refuses to go past it. */
const MAX_LIFETIME = 999_999_999_999_999;

/**
 * How many times each conversation (a store's folder and a session id) was deleted: its
 * lifetime, which every seal of its lines binds from 1 on (`grant-seal.ts`, `history-seal.ts`),
 * so a line kept aside before a delete and put back after fails its seal. A folder is known
 * by two paths (`SessionFolderPaths`: as the store was opened, and its real path), and each
 * keeps a count: a read takes the higher, a delete writes one more than it to both, so a
 * link on the way moved or retargeted during the delete, or another path to the folder, does
 * not find the conversation alive again (`session-folder-paths.ts` says why).
 * The number lies outside the workspace, beside the grant key file (`<home>/.rxharness/lifetimes/`,
 * one small file per conversation and path of its folder, named by a hash of path and id; one
 * path when no link lies on the way, as the two are then the same): in the workspace, the
 * model's commands could set it back. No file is lifetime 0, which seals as before lifetimes
 * were kept, so sessions written earlier load as they did. A key given in code has no file to
 * lie beside: its lifetimes are kept in the process ({@link ConversationLifetimes.inMemory}).
 * The task sessions of runs without a `sessionId` are counted by neither: their lifetime is a
 * random text kept in the process, forgotten by their delete (`ephemeral-lifetimes.ts`), so a
 * server's one-shot runs leave no file here.
 */
export class ConversationLifetimes {
  /** The lifetimes of the conversations deleted in this process, for stores with a key given in code. */
  private static readonly memory = new Map<string, number>();

  /**
   * Lifetimes kept in this process, shared by every store: what a store with a key given in
   * code has, since writing beside no key file would mean writing to the user's home unasked.
   * Another process does not see them. None is ever forgotten (a forgotten one would read as 0:
   * the live conversation would fail its seals and lines kept aside before a delete pass
   * again): one small entry (folder path, id, count) per conversation deleted in the process
   * while it had files, two when a link lies on the way to its folder (one per path,
   * `lifetimeFolders`), some hundred bytes each, so a million such deletes hold some hundred MB.
   */
  static inMemory(): ConversationLifetimes {
    return new ConversationLifetimes(null);
  }

  /**
   * @param dir - the folder of the lifetime files; `null` for {@link inMemory}; `undefined`
   * when there is none (no home folder): every conversation is then in its first lifetime, and
   * a delete cannot be recorded.
   */
  constructor(private readonly dir: string | null | undefined) {}

  /**
   * The conversation's lifetime, read anew each time (another store or process may have
   * deleted it): the highest count kept under any of `folders` (the paths its folder is known
   * by, `lifetimeFolders`), 0 when no delete was recorded.
   *
   * @throws Error naming the file and saying what to do, when one cannot be read or is no
   * lifetime file: taken as 0, it would let a deleted conversation's lines load again.
   */
  async current(folders: readonly string[], sessionId: string): Promise<number> {
    const counts = await Promise.all([...new Set(folders)].map((folder) => this.count(folder, sessionId)));
    return Math.max(0, ...counts);
  }

  /**
   * Ends the conversation's current lifetime (a delete, before its files are removed): one
   * more than {@link current} is written under every one of `folders`, each whole (a
   * temporary file renamed over it), so a read through either path finds it ended. Answers
   * the lifetime that ended: what the conversation's files still in the folder were sealed
   * for (the delete checks its task files against it). A write that fails leaves the others
   * done: a read takes the highest count, so the lifetime is ended where one was written.
   *
   * @throws Error when a count cannot be read (see {@link current}) or written, or there is
   * no folder for it, or the count is at its bound (999,999,999,999,999: nothing is written).
   */
  async end(folders: readonly string[], sessionId: string): Promise<number> {
    const where = folders.join(' and ');
    if (this.dir === undefined) throw new Error(`cannot record the delete of session "${sessionId}": no home folder to keep it in (set HOME)`);
    const ended = await this.current(folders, sessionId);
    const next = ended + 1;
    // Written, a sixteenth digit would make the file unreadable for good (see LIFETIME_TEXT).
    if (next > MAX_LIFETIME) {
      throw new Error(
        `session "${sessionId}" in ${where} was deleted too many times (${ended}) for its delete to be recorded: ` +
          'its files are removed all the same; start new conversations under another session id',
      );
    }
    for (const folder of new Set(folders)) await this.write(folder, sessionId, next);
    return ended;
  }

  /** The count kept under one path of the folder (0 when none). */
  private async count(folder: string, sessionId: string): Promise<number> {
    if (this.dir === undefined) return 0; // no delete can have been recorded
    if (this.dir === null) return ConversationLifetimes.memory.get(JSON.stringify([folder, sessionId])) ?? 0;
    const file = this.file(folder, sessionId);
    let text: string;
    try {
      text = await readSmall(file);
    } catch (e) {
      if (errnoOf(e) === 'ENOENT') return 0;
      throw new Error(`cannot read the conversation lifetime file ${file} of session "${sessionId}" in ${folder} (${errnoOf(e) ?? (e as Error).message}): check its permissions`);
    }
    if (!LIFETIME_TEXT.test(text)) {
      throw new Error(
        `the conversation lifetime file ${file} of session "${sessionId}" in ${folder} is corrupt (not written by rxharness): it counts the deletes of the conversation. ` +
          `Remove the session's files from the folder (they may be a deleted conversation's, put back), then this file`,
      );
    }
    return Number(text);
  }

  /** Keeps `count` under one path of the folder: in the process, or as a file written whole. */
  private async write(folder: string, sessionId: string, count: number): Promise<void> {
    if (this.dir === null) {
      ConversationLifetimes.memory.set(JSON.stringify([folder, sessionId]), count);
      return;
    }
    const file = this.file(folder, sessionId);
    const temporary = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    try {
      await this.writeNew(temporary, count);
      await rename(temporary, file);
    } catch (e) {
      await rm(temporary, { force: true });
      throw new Error(`cannot record the delete of session "${sessionId}" in ${file} (${errnoOf(e) ?? (e as Error).message}): check that the folder can be written`);
    }
  }

  /** Writes `count` to the new file `temporary`, making the folder only when missing (not before every write: a call per delete saved). */
  private async writeNew(temporary: string, count: number): Promise<void> {
    const write = (): Promise<void> => writeFile(temporary, `${count}\n`, { flag: 'wx', mode: 0o600 });
    try {
      await write();
    } catch (e) {
      if (errnoOf(e) !== 'ENOENT') throw e;
      await mkdir(this.dir!, { recursive: true, mode: 0o700 });
      await write();
    }
  }

  /** The conversation's file: a hash, so no id or path needs encoding and none reaches out of the folder. */
  private file(folder: string, sessionId: string): string {
    const name = createHash('sha256').update(JSON.stringify([folder, sessionId])).digest('hex');
    return join(this.dir!, name);
  }
}

/** A small regular file's text, not through a link; anything larger than {@link MAX_BYTES} is cut (and then fails the pattern). */
async function readSmall(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    if (!(await handle.stat()).isFile()) return '';
    const bytes = Buffer.alloc(MAX_BYTES + 1);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    return bytes.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
