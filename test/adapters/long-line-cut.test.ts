/**
 * Model text of any length (a pasted prompt, a heredoc in a bash command, a server's error
 * page) reaches a tree line, a tool label or a plain line, where it is cut to the terminal's
 * width. Only its start may be measured: `Intl.Segmenter`, behind `string-width`, takes time
 * quadratic in the length of the whole string (a 60 KB command took 5 s to label, a 100 KB
 * line 40 s to cut), and the tree redraws every 80 ms.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import stringWidth from 'string-width';
import { createTreeState, plainLine, reduceTree, renderTree, toolLabel } from '../../src/adapters/terminal-tree/index.js';
import { truncate } from '../../src/adapters/terminal-tree/text-line.js';
import { FixtureRun } from './fixtures.js';

/** The most characters one call may hand the grapheme segmenter: a few lines' worth. */
const MOST_SEGMENTED = 4096;
const MiB = 1024 * 1024;

/** Fails any segmenting of a long string (the quadratic work) before it starts; records the longest. */
function guardSegmenter(): { longest: () => number } {
  let longest = 0;
  const segment = Intl.Segmenter.prototype.segment;
  vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (this: Intl.Segmenter, input: string) {
    longest = Math.max(longest, input.length);
    if (input.length > MOST_SEGMENTED) throw new Error(`segmented ${input.length} characters at once`);
    return segment.call(this, input);
  });
  return { longest: () => longest };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('cutting a very long line', () => {
  it('truncate measures only the start: a megabyte line is cut like a short one, to the width, ending in …', () => {
    const guard = guardSegmenter();
    for (const text of ['é'.repeat(MiB), `✔ ${'a'.repeat(MiB)}`, '👩‍💻'.repeat(MiB / 5), `${'x'.repeat(MiB)}\u0301`]) {
      const cut = truncate(text, 120);
      expect(cut.endsWith('…')).toBe(true);
      expect(text.startsWith(cut.slice(0, -1))).toBe(true);
      expect(stringWidth(cut)).toBeLessThanOrEqual(120);
      expect(stringWidth(cut)).toBeGreaterThanOrEqual(118); // as full as a short text's cut (a wide last grapheme may leave one column)
    }
    expect(guard.longest()).toBeLessThanOrEqual(MOST_SEGMENTED);
  });

  it("never keeps a grapheme the measured start split: half a surrogate pair, part of an emoji sequence", () => {
    guardSegmenter();
    // zero-width spaces take no column, so the kept start reaches the end of the measured
    // start (8 code units per column and one more column's worth: 56 for a width of 6)
    const filler = (units: number): string => `ab${'\u200b'.repeat(units - 2)}`;
    const halfPair = truncate(`${filler(55)}😀${'z'.repeat(MiB)}`, 6); // the start ends between 😀's halves
    expect(halfPair).toBe(`${filler(55)}…`);
    expect(halfPair).not.toMatch(/\p{Cs}/u); // no lone surrogate
    const family = '👩‍👩‍👧‍👦'; // 11 code units, one grapheme of two columns
    expect(truncate(`${filler(51)}${family}${'z'.repeat(MiB)}`, 6)).toBe(`${filler(51)}…`); // not '👩‍👩', its first 5 units
    const zalgo = `a${'\u0301'.repeat(MiB)}`; // one column and a megabyte of accents: no whole grapheme in the start
    expect(truncate(zalgo, 10)).toBe('…');
  });

  it('a tool label, a tree line and a plain line of megabyte model text stay cheap', () => {
    const guard = guardSegmenter();
    const heredoc = `cat > notes.md <<'EOF'\n${'line of the file, with words\n'.repeat(MiB / 29)}EOF`;
    expect(toolLabel('bash', { command: heredoc })).toMatch(/^bash cat > notes\.md <<'EOF' ⏎ line of the .*…$/);

    const main = new FixtureRun('r', 'main');
    const prompt = `Résumé of ${'word '.repeat(MiB / 5)}`;
    const state = reduceTree(createTreeState(), main.start(prompt), 0);
    expect(renderTree(state, { now: 0, width: 120 })).toMatch(/^⠋ main Résumé of word .*…$/);

    const warning = main.wrap({ type: 'Warning', runId: 'r', agentName: 'main', code: 'x', message: `« ${'!'.repeat(MiB)}` });
    expect(plainLine(warning)).toMatch(/^\[main\] warning \(x\): « !+…$/);
    expect(guard.longest()).toBeLessThanOrEqual(MOST_SEGMENTED);
  });
});
