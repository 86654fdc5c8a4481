import { lstatSync } from 'node:fs';
import { errorMessage } from '../../errors/error-message.js';
import { errnoOf } from '../../errors/errno-of.js';

/** The bounds of a {@link FileOutcomeCache}. */
export interface FileOutcomeCacheLimits {
  /** The most outcomes kept; past it the least recently used goes. */
  readonly entries: number;
  /** The most characters (as {@link FileOutcomeCache.get}'s `weigh` counts them) kept in all. */
  readonly chars: number;
}

/**
 * How long a file must have been left alone before what was read of it is kept. A file system
 * stamps times in ticks (milliseconds, two seconds on FAT): a rewrite of the same size in the
 * tick of the version read would leave the same stamp. Older than this, any later write gets a
 * later stamp. A file changed this recently is read again at the next call, as before.
 */
export const SETTLED_MS = 2_000;

/**
 * An errno name as the system spells it (`EMFILE`, `EIO`, `E2BIG`): `E`, then capitals and
 * digits, no `_`. Our own errors have a `code` too (`INVALID_DEFINITION`, `ENGINE_CLOSED`), and
 * so do Node's (`ERR_INVALID_ARG_TYPE`): they have a `_`, and say what the input is, not that
 * the system failed for a moment. Read as an errno, a bad front matter was never kept.
 */
const ERRNO_NAME = /^E[A-Z0-9]+$/;

/**
 * Whether `error` came from the system (it, or an error in its `cause` chain, carries an errno
 * `code` spelt as one: `EMFILE`, `EIO`, `EAGAIN`...) rather than from what the file says. Such an
 * error can pass with the file unchanged (the process out of descriptors for a moment), so it
 * is not kept.
 */
export function fromTheSystem(error: unknown): boolean {
  let seen: unknown = error;
  // Bounded: a cause chain may loop.
  for (let depth = 0; depth < 8 && typeof seen === 'object' && seen !== null; depth += 1) {
    if (ERRNO_NAME.test(errnoOf(seen) ?? '')) return true;
    seen = (seen as { cause?: unknown }).cause;
  }
  return false;
}

type Outcome<T> = { readonly value: T } | { readonly error: unknown };

interface Entry<T> {
  /** The file's identity and version when it was read: device, inode, size, mtime and ctime in ns. */
  readonly stamp: string;
  readonly outcome: Outcome<T>;
  readonly weight: number;
}

/**
 * What reading a file gave (a value, or an error about what it says), kept while the file stays the same:
 * same device and inode (not replaced), size, mtime and ctime. Any write changes the ctime, which
 * no tool can set back, so a rewrite keeping the size and the mtime (`cp -p`, `touch -r`) is
 * read again too; so is a file changed in the last {@link SETTLED_MS}. Least recently used
 * first out, within {@link FileOutcomeCacheLimits}.
 *
 * Only the read is skipped: whatever decides *which* file to read (links, trust) runs before,
 * on every call.
 */
export class FileOutcomeCache<T> {
  // A Map keeps insertion order: a hit moves its entry to the end, so the first is the least recently used.
  readonly #entries = new Map<string, Entry<T>>();
  readonly #limits: FileOutcomeCacheLimits;
  readonly #keepError: (error: unknown) => boolean;
  #chars = 0;
  #loads = 0;

  /**
   * @param keepError - whether an error `load` threw may be kept like a value (thrown again
   *   until the file changes); by default every one not {@link fromTheSystem}: what the file
   *   says is kept, a passing failure to read it is retried at the next call.
   */
  constructor(limits: FileOutcomeCacheLimits, keepError: (error: unknown) => boolean = (error) => !fromTheSystem(error)) {
    this.#limits = limits;
    this.#keepError = keepError;
  }

  /** How many outcomes are kept now. */
  get size(): number {
    return this.#entries.size;
  }

  /** How many times `load` ran (the file was read) since the cache was made; for tests. */
  get loads(): number {
    return this.#loads;
  }

  /**
   * `load()`'s outcome for `file` under `key` (which names everything else the outcome
   * depends on), from the cache when `file` has not changed since.
   *
   * @param file - the real path (no link as its last part) `load` reads
   * @param weigh - how many characters a value holds, against {@link FileOutcomeCacheLimits.chars}
   * @param enough - whether a kept value serves this call; when not, `load` runs again (a value
   *   kept short of what this call needs: a skill whose front matter a budget left unparsed)
   * @throws what `load` threw: again for as long as the file stays the same when the error is
   *   kept (see the constructor's `keepError`), else `load` runs again at the next call.
   */
  get(key: string, file: string, load: () => T, weigh: (value: T) => number, enough: (kept: T) => boolean = () => true): T {
    const before = stampOf(file);
    const kept = this.#entries.get(key);
    let outcome: Outcome<T>;
    const unchanged = kept !== undefined && before !== undefined && kept.stamp === before.stamp;
    if (unchanged && ('error' in kept.outcome || enough(kept.outcome.value))) {
      this.#entries.delete(key);
      this.#entries.set(key, kept);
      outcome = kept.outcome;
    } else {
      if (kept !== undefined) this.#drop(key, kept);
      this.#loads += 1;
      try {
        outcome = { value: load() };
      } catch (error) {
        outcome = { error };
      }
      // Kept only when the file had settled and did not change while it was read: else the next call reads it again.
      const settled = before !== undefined && Date.now() - before.changedMs >= SETTLED_MS;
      const keepable = !('error' in outcome) || this.#keepError(outcome.error);
      if (keepable && settled && stampOf(file)?.stamp === before.stamp) this.#keep(key, before.stamp, outcome, weigh);
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  #keep(key: string, stamp: string, outcome: Outcome<T>, weigh: (value: T) => number): void {
    const weight = 'error' in outcome ? errorMessage(outcome.error).length : weigh(outcome.value);
    if (weight > this.#limits.chars) return;
    this.#entries.set(key, { stamp, outcome, weight });
    this.#chars += weight;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#limits.entries && this.#chars <= this.#limits.chars) break;
      this.#drop(oldest, entry);
    }
  }

  #drop(key: string, entry: Entry<T>): void {
    this.#entries.delete(key);
    this.#chars -= entry.weight;
  }
}

/**
 * The file's identity and version, and when it last changed (its mtime or ctime, the later), or
 * `undefined` when it cannot be looked at (then nothing is kept).
 */
function stampOf(file: string): { readonly stamp: string; readonly changedMs: number } | undefined {
  try {
    const s = lstatSync(file, { bigint: true, throwIfNoEntry: false });
    if (s === undefined) return undefined;
    const changedMs = Number((s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs) / 1_000_000n);
    return { stamp: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, changedMs };
  } catch {
    return undefined;
  }
}
