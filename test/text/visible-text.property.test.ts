import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolLabel } from '../../src/adapters/terminal-tree/tool-label.js';
import { markInvisible, visibleLines } from '../../src/text/visible-text.js';

// What a human is asked to approve must look like what will run: every line on its own
// line, and nothing invisible or direction-changing shown raw.

/** Characters that must never reach the screen raw (an oracle written from the list, not the code). */
function isHidden(char: string): boolean {
  const cp = char.codePointAt(0)!;
  return (
    cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || // controls, line breaks included
    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp === 0x200e || cp === 0x200f || cp === 0x061c || // bidi
    (cp >= 0x200b && cp <= 0x200d) || cp === 0xfeff || cp === 0x2060 || // zero width
    /^[\p{Cf}\p{Cs}\p{Zl}\p{Zp}]$/u.test(char) ||
    (/^\p{Zs}$/u.test(char) && cp !== 0x20) // spaces that look like a space but are not one
  );
}

const dangerous = fc.constantFrom(
  '\n', '\r', '\t', '\u0000', '\u001b', '\u007f', '\u0085', '\u00a0', '\u00ad', '\u061c', '\u180e', '\u200b', '\u200c', '\u200d',
  '\u200e', '\u200f', '\u2028', '\u2029', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2060', '\u2066', '\u2067', '\u2068',
  '\u2069', '\u3000', '\ufeff', '\u{e0041}', '\ud800', '<U+202E>', '<', 'rm -rf /', ' ', 'é', '中', '👍',
);
const subject = fc.oneof(
  fc.array(dangerous, { maxLength: 30 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.oneof(dangerous, fc.string({ unit: 'binary', maxLength: 5 })), { maxLength: 12 }).map((parts) => parts.join('')),
);
const settings = { seed: 4_242, numRuns: 1_000 };

/** Undoes the marking: what a careful reader of the screen can reconstruct. */
function unmark(line: string): string {
  return line.replace(/<U\+([0-9A-F]{4,6})>/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)));
}

describe('visibleLines', () => {
  it('shows one screen line per line of the text, with nothing hidden in any of them', () => {
    fc.assert(
      fc.property(subject, (text) => {
        const lines = visibleLines(text);
        expect(lines).toHaveLength(text.split('\n').length);
        for (const line of lines) expect([...line].filter(isHidden), JSON.stringify(line)).toEqual([]);
      }),
      settings,
    );
  });

  it('loses nothing: the text can be read back exactly from what is shown', () => {
    fc.assert(
      fc.property(subject, (text) => {
        expect(visibleLines(text).map(unmark).join('\n')).toBe(text);
      }),
      settings,
    );
  });

  it('leaves ordinary text as it is', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ -;=-~]*$/), (text) => {
        expect(visibleLines(text)).toEqual([text]);
      }),
      settings,
    );
    expect(visibleLines('héllo 中文 👍 café')).toEqual(['héllo 中文 👍 café']);
  });
});

describe('markInvisible on one line', () => {
  it('marks line breaks too, so the result is one line', () => {
    fc.assert(
      fc.property(subject, (text) => {
        const shown = markInvisible(text);
        expect([...shown].filter(isHidden)).toEqual([]);
        expect(unmark(shown)).toBe(text);
      }),
      settings,
    );
  });
});

describe('the terminal tree label of a tool call', () => {
  it('marks what the command hides', () => {
    expect(toolLabel('bash', { command: 'echo "\u202Eexe.txt"' })).toBe('bash echo "<U+202E>exe.txt"');
    expect(toolLabel('bash', { command: 'echo a\nrm x' })).toBe('bash echo a ⏎ rm x');
  });
});
