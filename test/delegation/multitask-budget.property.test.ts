/**
 * `shareResultBudget` on any list: entries of text with characters of two UTF-16 units
 * (emoji), `]]>` and line breaks, some held cut at maxResultChars already (`heldContent`,
 * as a multitask's children leave them) and some whole (a refusal's text is never held),
 * maxResultChars from 1 (below MULTITASK_ENTRY_FLOOR) up. Lengths are as written
 * (`cdataLength`: a `]]>` is 15 characters once its CDATA is split).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heldContent, MULTITASK_ENTRY_FLOOR, MULTITASK_RESULT_SHARES, shareResultBudget } from '../../src/delegation/multitask-budget.js';
import { cdataLength, type TaskResultFields } from '../../src/delegation/task-result-format.js';

const MARKER = /\n\[\.\.\. (\d+) characters truncated by rxharness \.\.\.\]$/;
/** What a cut may leave unused of its share: a `]]>` that does not fit whole keeps only its `]]`. */
const SPLIT_LOSS = 12;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const textOf = (maxLength: number) => fc.array(fc.constantFrom('a', 'é', '😀', ']]>', '\n'), { maxLength, size: 'max' }).map((parts) => parts.join(''));
// short answers ("no bugs found") among long ones, as a real list has them
const text = fc.oneof(textOf(30), textOf(300), textOf(1_500));

describe('shareResultBudget on any entries', () => {
  it('keeps whole-character starts within the budget, marks exactly what went, and cuts only the longest, evenly, to what the others leave', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.boolean()), { maxLength: 40, size: 'max' }), fc.integer({ min: 1, max: 1_000 }), (items, max) => {
        const entries = items.map(([full, held], index): TaskResultFields => ({
          index,
          description: 'd',
          agentName: 'a',
          taskId: 't',
          status: held ? 'success' : 'failure',
          ...(held ? heldContent(full, max) : { content: full }),
        }));
        const out = shareResultBudget(entries, max);
        expect(out).toHaveLength(items.length);
        const kept = out.map((r, i) => {
          const full = items[i]![0];
          const marker = MARKER.exec(r.content);
          const start = marker ? r.content.slice(0, marker.index) : r.content;
          expect(r).not.toHaveProperty('omitted');
          expect(full.startsWith(start)).toBe(true);
          expect(LONE_SURROGATE.test(start)).toBe(false);
          expect(cdataLength(start)).toBeLessThanOrEqual(max);
          // a marker says exactly how much went; no marker: nothing went
          if (marker) expect(Number(marker[1])).toBe(full.length - start.length);
          else expect(start).toBe(full);
          return { length: cdataLength(start), cut: marker !== null, full: cdataLength(full) };
        });
        // the budget, unless the list is so long that each keeps the floor (or maxResultChars, if less)
        const total = kept.reduce((sum, k) => sum + k.length, 0);
        expect(total).toBeLessThanOrEqual(Math.max(MULTITASK_RESULT_SHARES * max, items.length * Math.min(MULTITASK_ENTRY_FLOOR, max)));
        const cut = kept.filter((k) => k.cut).map((k) => k.length);
        if (cut.length === 0) return;
        // the cut ones keep the same share (up to 12 units less where a `]]>` no longer fits whole,
        // whose split writes 15; one less where it would split a character)…
        expect(Math.max(...cut) - Math.min(...cut)).toBeLessThanOrEqual(SPLIT_LOSS);
        // …at least the floor however many there are (or maxResultChars, if less)…
        expect(Math.min(...cut)).toBeGreaterThanOrEqual(Math.min(MULTITASK_ENTRY_FLOOR, max) - SPLIT_LOSS);
        // …and no entry shorter than what they keep is cut
        for (const k of kept) if (k.full < Math.min(...cut)) expect(k.cut).toBe(false);
        // cut below maxResultChars, they had the budget left by the others (a unit each lost to rounding down or a split character)
        if (Math.min(...cut) < max - SPLIT_LOSS) expect(total).toBeGreaterThanOrEqual(MULTITASK_RESULT_SHARES * max - items.length - SPLIT_LOSS * cut.length);
      }),
      { numRuns: 300 },
    );
  });
});
