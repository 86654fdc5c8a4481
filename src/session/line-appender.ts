import { appendingTo, freshLineLeadOf } from './append-lines.js';
import type { ConfinedRoot } from './confined-file.js';

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
    try {
      await appendingTo(this.root, file, async (handle) => {
        let lead = '';
        if (!this.checked.has(file)) {
          this.checked.add(file);
          lead = await freshLineLeadOf(handle);
        }
        await handle.appendFile(lead + lines);
      });
    } catch (e) {
      // The write may have stopped mid-line: the next append checks the end of the file again.
      this.checked.delete(file);
      throw e;
    }
  }

  /** Forgets that `file` was checked (removed): the next append checks it again. */
  forget(file: string): void {
    this.checked.delete(file);
  }
}
