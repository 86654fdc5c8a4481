import { describe, expect, it } from 'vitest';
import { markSafeStart } from '../../src/text/marked-head.js';

describe('markSafeStart', () => {
  it('moves a start inside a mark to its end, and leaves any other start', () => {
    const marked = 'a<U+202E>evil<U+10FFFF>';
    for (let start = 2; start <= 9; start++) expect(markSafeStart(marked, start)).toBe(9);
    expect(markSafeStart(marked, 1)).toBe(1); // before the mark: it is kept whole
    expect(markSafeStart(marked, 10)).toBe(10);
    expect(markSafeStart(marked, 15)).toBe(23); // a six-digit mark
    expect(markSafeStart('<U+0007>x', 0)).toBe(0); // nothing cut: no mark split
    expect(markSafeStart('a <U+ b>', 4)).toBe(4); // a `<` that starts no mark
  });
});
