/**
 * The tail of each path's queue: the turn of the last caller to ask. A path is here only
 * while some caller holds or waits for it, so the map never outgrows the calls in flight.
 */
const tails = new Map<string, Promise<void>>();

/**
 * Runs `work` when no other `work` holds `path`, in the order asked, for the whole process.
 * The built-in `write` and `edit` take their file's real path: two sibling tasks editing one
 * file would otherwise both read it, both change it and both write it, and the later write
 * would drop the earlier change while both reported success. Taking turns, each edit reads
 * what the one before wrote.
 *
 * @param path - the real absolute path of the file (`WorkspacePath.absolute`).
 * @returns what `work` returns (or rejects with).
 *
 * @example
 * ```ts
 * return withPathLock(target.absolute, () => editAt(target, args, context));
 * ```
 */
export async function withPathLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(path);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  tails.set(path, mine);
  try {
    // Turns only ever resolve (see `finally`), so waiting here never throws.
    await before;
    return await work();
  } finally {
    release();
    // The last in the queue leaves nothing behind; a later caller has put its own turn there.
    if (tails.get(path) === mine) tails.delete(path);
  }
}
