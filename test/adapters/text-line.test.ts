import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { appendTail, markedLine, oneLine, stripControls, tail, truncate } from '../../src/adapters/terminal-tree/text-line.js';

describe('stripControls and oneLine', () => {
  it('remove escape sequences (CSI, OSC links, two-byte ones) and controls, keeping line breaks and tabs for oneLine', () => {
    const text = 'a\u001b[31mred\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007 \u001bc\u0007bell\u0008\u009b2J\tb\nc';
    expect(stripControls(text)).toBe('ared link bell\tb\nc');
    expect(oneLine(text)).toBe('ared link bell b c');
  });
});

describe('truncate', () => {
  it('measures as string-width does: ✅ and 👩‍💻 are two columns each, accents none', () => {
    expect(truncate('ok ✅ 👩‍💻 done', 20)).toBe('ok ✅ 👩‍💻 done');
    expect(truncate('ok ✅ 👩‍💻 done', 9)).toBe('ok ✅ 👩‍💻…');
    expect(truncate('ok ✅ 👩‍💻 done', 8)).toBe('ok ✅ …'); // the 👩‍💻 and the … need three
    expect(truncate('cafe\u0301 au lait', 5)).toBe('cafe\u0301…');
    expect(truncate('cafe\u0301 au lait', 4)).toBe('caf…');
    expect(truncate('中文字', 4)).toBe('中…');
    expect(truncate('abc', 0)).toBe('');
    expect(truncate('中', 1)).toBe('…');
  });

  const anyText = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.array(fc.constantFrom('a', ' ', '中', '✅', '👩‍💻', '🇫🇷', 'e\u0301', '\u200b', 'ｶﾞ', '…'), { maxLength: 30 }).map((p) => p.join('')),
  );

  it('never exceeds the width, cuts only between graphemes, and marks every cut with …', () => {
    const graphemes = (s: string): string[] => [...new Intl.Segmenter().segment(s)].map((g) => g.segment);
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 50 }), (text, width) => {
        const cut = truncate(text, width);
        expect(stringWidth(cut)).toBeLessThanOrEqual(width);
        if (stringWidth(text) <= width) expect(cut).toBe(text);
        else if (width === 0) expect(cut).toBe('');
        else {
          expect(cut.endsWith('…')).toBe(true);
          const kept = graphemes(cut.slice(0, -1));
          expect(graphemes(text).slice(0, kept.length)).toEqual(kept);
        }
      }),
      { seed: 615, numRuns: 1_000 },
    );
  });
});

describe('markedLine', () => {
  it('marks escape sequences and controls instead of dropping them, one line', () => {
    expect(markedLine('a\u001b[31mred\u001b[0m\r\n\tb\u0007\u009b2J\u200b')).toBe('a<U+001B>[31mred<U+001B>[0m b<U+0007><U+009B>2J<U+200B>');
  });
});

describe('tail and appendTail', () => {
  it('mark controls, and never start a cut tail inside a mark', () => {
    expect(tail('ok\u001b[2J', 60)).toBe('ok<U+001B>[2J');
    // 20 BELs mark as 160 units: a cut at 59 units from the end falls inside a mark
    for (const max of [10, 11, 14, 60]) {
      const cut = tail('\u0007'.repeat(20), max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut).toMatch(/^…(<U\+0007>)+$/);
    }
    expect(appendTail('', '\u0007'.repeat(20), 14)).toBe('…<U+0007>');
  });

  it('mark only the end of a huge text, and end as the whole does', () => {
    const huge = `${'\u200b'.repeat(1_000_000)} end\u0007`;
    // no room for a whole <U+200B> before ' end<U+0007>': the mark's end is not shown alone
    expect(tail(huge, 20)).toBe('…end<U+0007>');
    expect(tail(huge, 29)).toBe('…<U+200B><U+200B> end<U+0007>');
    expect(appendTail('start ', huge, 20)).toBe(tail(huge, 20));
  });

  it('keep the end, one line, with a visible … where the start was cut', () => {
    expect(tail('ab\ncd', 4)).toBe('…cd');
    expect(tail('  short\n', 60)).toBe('short ');
    expect(appendTail('…lo wor', 'ld', 8)).toBe('…o world');
    expect(appendTail('…lo wor', 'ld!\n', 8)).toBe('…world! ');
    expect(appendTail('one ', '  two', 60)).toBe('one two');
  });

  it('appending delta by delta keeps the end of the whole text: all of it when it fits, else a …-marked end of it', () => {
    // escape sequences too: marked (their ESC), not recognised, so one split across two deltas shows as the whole does
    const delta = fc.array(fc.constantFrom('ab', ' ', '\n\n', '\t', '中文', '✅', '👩‍💻', '🇫🇷', 'e\u0301', '\u0301', '\u0007', 'xyz ', '\u001b', '[31m', '\u200b', '<'), { maxLength: 6 });
    fc.assert(
      fc.property(fc.array(delta.map((p) => p.join('')), { maxLength: 40 }), fc.integer({ min: 1, max: 60 }), (deltas, max) => {
        const folded = deltas.reduce((current, d) => appendTail(current, d, max), '');
        const whole = markedLine(deltas.join('')).trimStart();
        expect(folded.length).toBeLessThanOrEqual(max);
        if (whole.length <= max) expect(folded).toBe(whole);
        else {
          expect(folded.startsWith('…')).toBe(true);
          expect(whole.endsWith(folded.slice(1))).toBe(true);
          // never the end of a mark alone: `01B>` would not say which character was there
          expect(folded).not.toMatch(/^…[0-9A-F+U]*>/);
        }
      }),
      { seed: 616, numRuns: 1_000 },
    );
  });
});
