import { constants } from 'node:fs';
import { join } from 'node:path';
import { blockedWayError } from './blocked-way.js';
import { makeConfinedFolder, openConfined, type ConfinedRoot } from './confined-file.js';
import { readWhole } from './read-whole.js';
import { sessionFileName, type SessionFileKind } from './session-file-name.js';
import { errnoOf } from '../errors/errno-of.js';

/**
 * The folder of a `FileSessionStore` and the reading of its files: where each file of a
 * session lies, a file read whole through the confinement checks (no link out of `root`, no
 * FIFO or folder opened as a file, no file too large to be text), and the folder made once.
 */
export class SessionFolder {
  private ready: Promise<unknown> | undefined;

  /**
   * @param root - what the files must stay in (the workspace, or the folder given outside it).
   * @param dir - the folder holding the files.
   */
  constructor(
    readonly root: ConfinedRoot,
    readonly dir: string,
  ) {}

  /** Every file of a session is named here (an id that cannot name a session is refused there). */
  file(id: string, kind: SessionFileKind): string {
    return join(this.dir, sessionFileName(id, kind));
  }

  /** The text of `file`, read whole; `root` is the folder's root pinned for an operation reading many files (`withRealPath`). */
  async read(file: string, root: ConfinedRoot = this.root): Promise<string> {
    const handle = await openConfined(root, file, constants.O_RDONLY);
    try {
      return (await readWhole(handle, file)).toString('utf8');
    } finally {
      await handle.close();
    }
  }

  /** A file's lines; none for a file that does not exist. */
  async readLines(file: string): Promise<string[]> {
    try {
      return (await this.read(file)).split('\n');
    } catch (e) {
      if (errnoOf(e) === 'ENOENT') return [];
      throw e;
    }
  }

  /**
   * Makes the folder once; a failure (a link planted on the way) is tried again next time. A
   * way the system cannot go (a dangling link, a file or a link loop on it: `ENOTDIR`, `ELOOP`)
   * fails naming what blocks it (`blockedWayError`): every write and claim, so an engine's
   * delete too, comes here first.
   */
  mkdir(): Promise<unknown> {
    this.ready ??= makeConfinedFolder(this.root, this.dir).catch(async (e: unknown) => {
      this.ready = undefined;
      throw await blockedWayError(this.root, this.dir, e);
    });
    return this.ready;
  }
}
