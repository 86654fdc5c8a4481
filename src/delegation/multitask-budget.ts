/**
 * The bound on a whole `multitask` result. Each entry's content is cut at `maxResultChars`
 * like a `task` result; on its own that leaves the call's text N × `maxResultChars` long (a
 * list of 200 answers of 12,000 characters is 2.4 million characters, read back into every
 * later request of the conversation). So the entries share a total, and the longest are cut
 * first: an entry shorter than an even share keeps all of it, and what it leaves goes to the
 * others. The background results delivered together in front of a prompt share it the same
 * way (`backgroundResults`).
 *
 * @module
 */
import { headOf } from '../text/whole-chars.js';
import { cdataLength, cutResult, type TaskResultFields } from './task-result-format.js';

/**
 * How many `maxResultChars` the entries of one `multitask` result hold together: 4, so
 * 48,000 characters by default, about as much as four full `task` results.
 */
export const MULTITASK_RESULT_SHARES = 4;

/**
 * What any entry may keep however many share the budget (unless `maxResultChars` is less): a
 * short answer ("no bugs found") stays readable in a list of thousands, whose `<task_result>`
 * lines are each longer than this anyway.
 */
export const MULTITASK_ENTRY_FLOOR = 100;

/**
 * `results` with their contents cut to fit `maxResultChars` each and
 * {@link MULTITASK_RESULT_SHARES} × `maxResultChars` together (not counting the markers), or
 * {@link MULTITASK_ENTRY_FLOOR} each when the list is too long for that. Lengths are counted
 * as the contents are written (`cdataLength`: a `]]>` is 15 characters once split), so no
 * written entry exceeds its share. The share is even
 * across entries, with what a short entry leaves given to the longer ones;
 * each cut entry keeps its start and ends with the usual marker saying how much went, so the
 * format stays the one of a single task.
 *
 * @example
 * ```ts
 * shareResultBudget(results, 12_000); // 200 long answers: 240 characters of each, and a marker
 * ```
 */
export function shareResultBudget(results: readonly TaskResultFields[], maxResultChars: number): TaskResultFields[] {
  // Counted as written: a `]]>` is written in 15 characters (its CDATA split), and the cut
  // comes before the split, so a content of them would be written 5 times its share.
  const written = results.map((r) => cdataLength(r.content));
  const lengths = written.map((length) => Math.min(length, maxResultChars));
  const share = Math.max(MULTITASK_ENTRY_FLOOR, evenShare(lengths, maxResultChars * MULTITASK_RESULT_SHARES));
  const allowed = Math.min(maxResultChars, share);
  // The one cut of a result (`cutResult`), which a `task` result has too.
  return results.map(({ omitted = 0, ...r }, i) => (written[i]! <= allowed && omitted === 0 ? r : { ...r, content: cutResult(r.content, allowed, omitted) }));
}

/**
 * A `multitask` entry's content as its task ends: its start, `maxResultChars` at most, and
 * how much went, for {@link shareResultBudget} to mark. All the entries are held until the
 * last task ends: none holds more than it could keep.
 *
 * @example
 * ```ts
 * heldContent('a'.repeat(15_000), 12_000); // { content: 'aaa…' (12,000), omitted: 3_000 }
 * ```
 */
export function heldContent(content: string, maxResultChars: number): Pick<TaskResultFields, 'content' | 'omitted'> {
  if (content.length <= maxResultChars) return { content };
  const kept = headOf(content, maxResultChars);
  return { content: kept, omitted: content.length - kept.length };
}

/**
 * The most any entry may keep so that `lengths` fit in `total` together: the entries below it
 * keep their length, those above it are cut to it (water-filling, shortest first).
 */
function evenShare(lengths: readonly number[], total: number): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  let left = total;
  for (const [i, length] of sorted.entries()) {
    const share = Math.floor(left / (sorted.length - i));
    if (length > share) return share;
    left -= length;
  }
  return Number.POSITIVE_INFINITY; // everything fits
}
