import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextRope } from '../../src/runs/text-rope.js';

describe('TextRope', () => {
  it('property: every piece comes back as it was appended, read at any time, in any order, empty pieces and unicode included', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 4 }), fc.constant('')), { maxLength: 400 }), fc.nat(), (pieces, seed) => {
        const rope = new TextRope();
        const at: number[] = [];
        pieces.forEach((piece, i) => {
          at.push(rope.append(piece));
          // Reads in the middle (pending pieces flushed early) must not disturb what follows.
          if ((i * 7 + seed) % 37 === 0) expect(rope.slice(at[i]!, piece.length)).toBe(piece);
        });
        const order = pieces.map((_, i) => (i * 31 + seed) % Math.max(1, pieces.length));
        for (const i of order) expect(rope.slice(at[i]!, pieces[i]!.length)).toBe(pieces[i]);
      }),
      { numRuns: 300 },
    );
  });

  it('100,000 pieces: offsets follow one another and the last reads back', () => {
    const rope = new TextRope();
    let expected = 0;
    for (let i = 0; i < 100_000; i++) {
      const piece = `p${i}`;
      expect(rope.append(piece)).toBe(expected);
      expected += piece.length;
    }
    expect(rope.slice(expected - 'p99999'.length, 6)).toBe('p99999');
    expect(rope.slice(0, 2)).toBe('p0');
  });
});
