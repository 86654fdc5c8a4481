import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openConfined, type ConfinedRoot } from './confined-file.js';

const { O_APPEND, O_CREAT, O_RDWR } = constants;

/**
 * Appends whole lines to a `FileSessionStore`'s JSON-lines files that bind no place (its
 * grants), starting on a fresh line when a crash or a failed write cut the file's last one:
 * else the first new line would be glued to the cut one, and both lost. The end of each
 * file is checked once, and again after a failed write.
 */
export class LineAppender {
  private readonly checked = new Set<string>();

  constructor(private readonly root: ConfinedRoot) {}

  /** Appends `lines` (whole lines, each ending in a newline) to `file`, creating it. */
  async append(file: string, lines: string): Promise<void> {
    let handle: FileHandle | undefined;
    try {
      handle = await openConfined(this.root, file, O_RDWR | O_APPEND | O_CREAT);
      let lead = '';
      if (!this.checked.has(file)) {
        this.checked.add(file);
        if (!(await endsWithNewline(handle))) lead = '\n';
      }
      await handle.appendFile(lead + lines);
    } catch (e) {
      // The write may have stopped mid-line: the next append checks the end of the file again.
      this.checked.delete(file);
      throw e;
    } finally {
      await handle?.close();
    }
  }

  /** Forgets that `file` was checked (removed): the next append checks it again. */
  forget(file: string): void {
    this.checked.delete(file);
  }
}

/** True for an empty file, or one whose last byte is a newline. */
async function endsWithNewline(handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}
