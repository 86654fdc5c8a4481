import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncate } from '../../src/delegation/task-result-format.js';
import { clipMiddle } from '../../src/text/clip-middle.js';
import { headOf, tailOf, wholeEnd, wholeStart } from '../../src/text/whole-chars.js';
import { HeadTailBuffer } from '../../src/tools/head-tail-buffer.js';
import { isWellFormed } from '../support/well-formed.js';

/** Text rich in characters of two UTF-16 units, where any cut may fall between the two. */
const text = fc.array(fc.constantFrom('a', 'é', '😀', '𝔸', '中', '\n'), { maxLength: 60 }).map((parts) => parts.join(''));

describe('cuts that never split a character', () => {
  it('wholeEnd and wholeStart step off the middle of a pair, and nowhere else', () => {
    expect([wholeEnd('a😀', 2), wholeEnd('a😀', 1), wholeEnd('a😀', 3)]).toEqual([1, 1, 3]);
    expect([wholeStart('😀b', 1), wholeStart('😀b', 2), wholeStart('😀b', 0)]).toEqual([2, 2, 0]);
    // a lone surrogate already in the text is not a pair: no step
    expect([wholeEnd('\ud83dx', 1), wholeStart('x\ude00', 1)]).toEqual([1, 1]);
  });

  it('headOf and tailOf: a prefix and a suffix of whole characters, at most max long and at most one unit short', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 70 }), (s, max) => {
        for (const [cut, isPart] of [[headOf(s, max), s.startsWith.bind(s)], [tailOf(s, max), s.endsWith.bind(s)]] as const) {
          expect(isWellFormed(cut) && isPart(cut)).toBe(true);
          expect(cut.length).toBeLessThanOrEqual(max);
          expect(cut.length).toBeGreaterThanOrEqual(Math.min(s.length, max) - 1);
        }
      }),
    );
  });

  it("a task's result cut at maxResultChars, and a clipped message, stay whole text and count what went", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 70 }), (s, max) => {
        const cut = truncate(s, max);
        expect(isWellFormed(cut)).toBe(true);
        const omitted = /\[\.\.\. (\d+) characters truncated/.exec(cut)?.[1];
        if (omitted !== undefined) expect(cut.indexOf('\n[... ')).toBe(s.length - Number(omitted));
      }),
    );
    fc.assert(
      fc.property(text.map((s) => s.repeat(5)), fc.integer({ min: 80, max: 200 }), (s, max) => {
        const clipped = clipMiddle(s, max);
        expect(isWellFormed(clipped) && clipped.length <= max).toBe(true);
      }),
    );
  });

  it("a command's output kept as head and tail stays whole text and in order, however it arrives", () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 8 }), fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }), (chunks, headLimit, tailLimit) => {
        const buffer = new HeadTailBuffer(headLimit, tailLimit);
        chunks.forEach((chunk) => buffer.append(chunk));
        const all = chunks.join('');
        const kept = buffer.toString();
        expect(isWellFormed(kept)).toBe(true);
        if (buffer.omitted === 0) expect(kept).toBe(all);
        else {
          const [head, tail] = kept.split(`\n... [${buffer.omitted} characters omitted] ...\n`) as [string, string];
          expect(head + tail).toHaveLength(all.length - buffer.omitted);
          expect(all.startsWith(head) && all.endsWith(tail)).toBe(true);
        }
      }),
    );
  });
});
