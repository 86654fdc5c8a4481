/**
 * `shownKey` bounds what a warning shows of a planted key once marked: each control marks as
 * eight characters (`<U+0001>`), so a key cut to 200 and marked after came out 1,600 long.
 */
import { describe, expect, it } from 'vitest';
import { shownKey } from '../../src/backend/bad-data-warning.js';

describe('shownKey', () => {
  it('shows a key of controls in at most 200 characters, its marks whole, ending in …', () => {
    const shown = shownKey(`rxh:task:${'\u0001'.repeat(10_000)}`);
    expect(shown.length).toBeLessThanOrEqual(200);
    expect(shown).toMatch(/^rxh:task:(<U\+0001>)+…$/);
  });

  it('shows a short key whole, marked, without …', () => {
    expect(shownKey('rxh:task:\u001b[2J')).toBe('rxh:task:<U+001B>[2J');
  });
});
