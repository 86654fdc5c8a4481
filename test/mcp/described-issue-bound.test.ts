/**
 * A server's message in a malformed-tool warning was cut to 200 characters and then its
 * controls escaped (`\u0001`, six characters each): 200 controls came out as 1,200, and a
 * bidi override passed raw. Now it is marked first (`<U+0001>`) and the bound holds on what
 * is shown, a mark never split.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describedIssue, malformedTools } from '../../src/mcp/mcp-malformed-tools.js';
import { markInvisible } from '../../src/text/visible-text.js';

const piece = fc.constantFrom('a', ' ', '<', '<U+', '"', '\u0001', '\u001b[2J', '\u0085', '\u202e', '\u200b', '\u2028', '\n', '😀', '\ud800');
const message = fc.array(piece, { maxLength: 400 }).map((pieces) => pieces.join(''));
/** Where `shown` holds a `<U+` that is not a whole mark: none, or the first such. */
const partialMark = (shown: string): string | undefined => /<U\+(?![0-9A-F]{4,6}>).{0,8}/su.exec(shown)?.[0];

describe('a server\'s message in a malformed-tool warning', () => {
  it('is at most 200 characters once marked, shows no raw control or format character, and splits no mark', () => {
    fc.assert(
      fc.property(message, (text) => {
        const shown = describedIssue({ path: [], message: text });
        expect(shown.length).toBeLessThanOrEqual(200);
        expect(shown).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u);
        expect(partialMark(shown)).toBeUndefined();
        // what shows is the marked text, or its start and `…`
        const whole = markInvisible(text);
        expect(shown.endsWith('…') && shown !== whole ? whole.startsWith(shown.slice(0, -1)) : shown === whole).toBe(true);
      }),
      { seed: 68, numRuns: 300 },
    );
  });

  it('of 5,000 controls keeps the whole warning short', () => {
    expect(describedIssue({ path: ['inputSchema'], message: `bad${'\u0001'.repeat(5_000)}` })).toBe(`inputSchema: bad${'<U+0001>'.repeat(24)}…`);
    const bad = malformedTools('docs');
    bad.add({ name: 'x' }, 1, [1, 2, 3].map(() => ({ path: ['inputSchema'], message: '\u202e'.repeat(5_000) })));
    const [warning] = bad.messages(1);
    expect(warning!.length).toBeLessThan(800);
    expect(warning).not.toMatch(/\u202e/u);
  });

  it('is shown whole when it fits', () => {
    expect(describedIssue({ path: ['inputSchema', 'type'], message: 'Invalid input: expected "object"' })).toBe('inputSchema.type: Invalid input: expected "object"');
    expect(describedIssue({ path: [], message: 'a\u0001b' })).toBe('a<U+0001>b');
  });
});
