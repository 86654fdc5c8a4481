import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quotedClip } from '../../src/text/quoted-clip.js';
import { wireJson } from '../../src/text/wire-json.js';

// Text a message quotes is hostile (a server's keys, a model's pattern): its quoted form must
// stay within the bound however many escapes it needs, and stay one JSON string.
const hostile = fc.constantFrom('\u0001', '\n', '"', '\\', '\u202e', '\u2028', '\u{e0041}', '\ud800', '\udc00', '😀', 'a', ' ');
const text = fc.oneof(
  fc.array(hostile, { maxLength: 400 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 400 }),
);

describe('quotedClip', () => {
  it('is at most max characters, parses as one JSON string, and is the whole text quoted when that fits', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 80, max: 400 }), (t, max) => {
        const shown = quotedClip(t, max);
        expect(shown.length).toBeLessThanOrEqual(max);
        const back = JSON.parse(shown) as string;
        if (wireJson(t)!.length <= max) expect(back).toBe(t);
        else {
          // Its start and its end, the marker counting the characters cut between them.
          const [, head, count, tail] = /^([^]*) \[\.\.\. (\d+) characters cut \.\.\.\] ([^]*)$/.exec(back)!;
          expect(t.startsWith(head!) && t.endsWith(tail!)).toBe(true);
          expect(head!.length + Number(count) + tail!.length).toBe(t.length);
        }
        expect(shown).not.toMatch(/[\u0000-\u001f\u2028\u2029\u202e]/);
      }),
    );
  });

  it('bounds a text of controls once escaped: 1,000 controls in 100 characters', () => {
    const shown = quotedClip('\u0001'.repeat(1_000), 100);
    expect(shown.length).toBeLessThanOrEqual(100);
    expect(shown).toMatch(/^"(\\u0001)+ \[\.\.\. \d+ characters cut \.\.\.\] (\\u0001)+"$/);
  });
});
