/**
 * `run @name` prints the start of a refused definition's reason, bounded once marked (the
 * CLI marks a usage error as it prints it): the start is found with one marking, not one per
 * character kept, and prints as the per-character search printed it.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rawMarkedHead } from '../../src/cli/reason-head.js';
import { markInvisible } from '../../src/text/visible-text.js';
import { headOf } from '../../src/text/whole-chars.js';

const MAX = 600;

/** The search this replaced: the longest start, whole characters, that fits with its `…` once marked. */
function perCharacter(reason: string, max: number): string {
  const fits = (text: string): boolean => markInvisible(text).length <= max;
  if (reason.length <= max && fits(reason)) return reason;
  const start = headOf(reason, max);
  let end = 0;
  for (const char of start) {
    if (!fits(`${start.slice(0, end + char.length)}…`)) break;
    end += char.length;
  }
  return `${start.slice(0, end)}…`;
}

// Plain text and what is marked: controls, escapes, bidi, no-break spaces, lone and paired surrogates, a literal `<U+`.
const PIECES = ['a', 'é', ' ', '\u0001', '\u001b[31m', '\u202e', '\u00a0', '😀', '\ud83d', '\u{e0041}', '<', 'U+', '…'];
const reasons = fc.array(fc.constantFrom(...PIECES), { maxLength: 400 }).map((pieces) => pieces.join(''));

afterEach(() => vi.restoreAllMocks());

describe('rawMarkedHead', () => {
  it('keeps a reason that fits once marked whole, and cuts one that does not to its raw start and `…`', () => {
    expect(rawMarkedHead('ok\u0001', 80)).toBe('ok\u0001');
    expect(rawMarkedHead('\u0001'.repeat(1_000), 20)).toBe('\u0001\u0001…');
    expect(rawMarkedHead('ab\u202Ecd', 10)).toBe('ab…'); // `ab<U+202E>` would be 10 with the `…` 11
    expect(rawMarkedHead('a😀\u{e0041}b', 12)).toBe('a😀…'); // the tag character's mark is 9, and it is two units raw
  });

  it('prints as the per-character search did, bounded once marked', () => {
    fc.assert(
      fc.property(reasons, fc.integer({ min: 1, max: 120 }), (reason, max) => {
        const head = rawMarkedHead(reason, max);
        const printed = markInvisible(head);
        expect(printed.length).toBeLessThanOrEqual(max);
        expect(reason.startsWith(head) || (head.endsWith('…') && reason.startsWith(head.slice(0, -1)))).toBe(true);
        // a literal `<U+` cut after its `<` may print one or two characters less: it is marked whole or left out
        if (!reason.includes('<U+')) expect(head).toBe(perCharacter(reason, max));
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ['a long plain reason', `${'a'.repeat(1_000)}\u0001`, `${'a'.repeat(599)}…`],
    ['a reason of controls', '\u0001'.repeat(1_000), `${'\u0001'.repeat(74)}…`], // 74 marks of 8, and the `…`
    ['a reason of no-break spaces', 'a\u00a0'.repeat(1_000), `${'a\u00a0'.repeat(66)}a…`], // 66 × 9, an `a` and the `…`
  ])('marks %s once: the text it scans grows with what is shown, not with its square', (_, reason, shown) => {
    // every marking starts with a `search` of the text for what it marks (`markMatches`)
    const search = vi.spyOn(String.prototype, 'search');
    const head = rawMarkedHead(reason, MAX);
    const scanned = search.mock.contexts.reduce<number>((sum, text) => sum + String(text).length, 0);
    search.mockRestore();
    expect(head).toBe(shown);
    // the start that can show, once; the per-character search scanned each start it tried: 180,000 characters for the first
    expect(scanned).toBeLessThanOrEqual(MAX);
  });
});
