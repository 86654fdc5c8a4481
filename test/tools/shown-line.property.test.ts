import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shownLine } from '../../src/tools/shown-name.js';

// grep shows a matched line after `name:line: `. It must read back to exactly the file's line:
// a file's own `\` `r` once showed the same as a carriage return escaped.

/** What a reader does with a shown line: JSON when it starts and ends with `"`, else the line itself. */
function readBack(shown: string): string {
  return shown.length >= 2 && shown.startsWith('"') && shown.endsWith('"') ? (JSON.parse(shown) as string) : shown;
}

/** Characters that must never show raw (an oracle from the list, not the code): line breaks, controls but a tab, bidi and zero-width characters. */
const MISREAD = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;

const tricky = fc.constantFrom('\\', 'r', 'n', 'u', '2028', '"', '\r', '\n', '\t', '\u0085', '\u2028', '\u202e', '\u001b', '\u0000', ' ', 'key', 'é', '🙂');
const line = fc.oneof(
  fc.array(tricky, { maxLength: 20 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
/** Lines with nothing to escape and no quote at both ends: most lines of code. */
const plain = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '\t', '\\', '"', ';', '=', '(', ')', 'é', '世', '🙂'), maxLength: 40 }).filter((l) => !(l.startsWith('"') && l.endsWith('"')));

describe('shownLine', () => {
  it('shows every line so that it reads back to exactly that line, nothing misleading raw', () => {
    fc.assert(
      fc.property(line, (l) => {
        const shown = shownLine(l);
        expect(readBack(shown)).toBe(l);
        expect(shown).not.toMatch(MISREAD);
      }),
      { numRuns: 2_000 },
    );
  });

  it('shows a plain line as it is, backslashes and tabs included', () => {
    fc.assert(
      fc.property(plain, (l) => {
        expect(shownLine(l)).toBe(l);
      }),
    );
  });

  it('shows a file\'s own `\\` `r` unlike a carriage return', () => {
    expect(shownLine('a\\rb')).toBe('a\\rb');
    expect(shownLine('a\rb')).toBe('"a\\rb"');
    expect(shownLine('"a\\rb"')).toBe('"\\"a\\\\rb\\""');
  });
});
