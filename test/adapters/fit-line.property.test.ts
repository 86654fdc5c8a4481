/**
 * The tree marks only the start of a text that can show (`fit-line.ts`), so that a name of
 * megabytes costs what a short one does. What it shows must be what marking the whole and
 * cutting it showed: for texts around the lengths where the start ends (a few hundred to a
 * thousand units), made of what changes length when marked or cleaned, cut anywhere.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { fitLines, fitMarked, fitOneLine, truncateMarked } from '../../src/adapters/terminal-tree/fit-line.js';
import { oneLine } from '../../src/adapters/terminal-tree/text-line.js';
import { markInvisible, visibleLines } from '../../src/text/visible-text.js';

const tags = (text: string): string => String.fromCodePoint(...[...text].map((c) => 0xe0000 + c.charCodeAt(0)));
const piece = fc.constantFrom(
  'a', 'bc', ' ', '   ', '<', 'U', '+', '<U+', '\u200b', '\u202e', '\u0085', '\u00a0', '\ufeff', '\u3000', '\n', '\r', '\t', '\u0000',
  '\ud800', '\udc00', '😀', '👩‍💻', '\u{e0100}', '\u0301', '中', '\u{1f1fa}\u{1f1f8}', '\u200d', '\ufe0f',
  '\u001b[31m', '\u001b]8;;http://x\u0007', '\u001b', '\u009b2J', `\u{1f3f4}${tags('gbeng')}\u{e007f}`, '\u{1f3f4}', tags('gb'),
);
/** A run of one piece (what hostile text is) with other pieces strewn in, a few hundred to a couple of thousand units long. */
const text = fc
  .tuple(piece, fc.array(fc.tuple(fc.nat(1_500), piece), { maxLength: 12 }), fc.integer({ min: 50, max: 2_000 }))
  .map(([run, strewn, length]) => {
    let out = run.repeat(Math.ceil(length / run.length));
    for (const [at, p] of strewn) out = out.slice(0, at) + p + out.slice(at);
    return out;
  });
const width = fc.constantFrom(1, 2, 6, 40, 64, 120);
const settings = { seed: 58, numRuns: 400 };

describe('cutting marked text from its start', () => {
  it('shows what marking the whole and cutting it shows', () => {
    fc.assert(
      fc.property(text, width, (t, w) => {
        expect(fitMarked(t, w)).toBe(truncateMarked(markInvisible(t), w));
        expect(fitLines(t, w)).toBe(truncateMarked(visibleLines(t).join(' ⏎ '), w));
        expect(fitOneLine(t, w)).toBe(truncateMarked(oneLine(t), w));
      }),
      settings,
    );
  });

  it('keeps a tag flag whole where the start it marks ends', () => {
    // zero-width joiners take no column and are not marked: the cut reaches the start's end,
    // where a flag the start split in two would be marked tag by tag
    const flag = `\u{1f3f4}${tags('gbsct')}\u{e007f}`;
    for (const w of [1, 6, 40, 64, 120]) {
      for (let at = Math.max(0, (w + 1) * 8 - 20); at <= (w + 1) * 8 + 20; at += 1) {
        const t = `${'\u200d'.repeat(at)}${flag}${'z'.repeat(50)}`;
        expect(fitOneLine(t, w)).toBe(truncateMarked(oneLine(t), w));
      }
    }
  });

  it('marks a text without hidden characters, spaces included, without trying a match per space', () => {
    let matches = 0;
    const exec = RegExp.prototype.exec;
    vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, s: string) {
      matches += 1;
      return exec.call(this, s);
    });
    const words = 'a plain sentence of words '.repeat(40_000);
    const marked = markInvisible(words);
    vi.restoreAllMocks();
    expect(marked).toBe(words);
    expect(matches).toBeLessThanOrEqual(2);
  });
});
