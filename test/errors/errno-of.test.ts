import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { errnoOf } from '../../src/errors/errno-of.js';

describe('errnoOf', () => {
  it('reads the errno code of a real system error', async () => {
    const error = await readFile('/definitely/not/here/rxharness').catch((e: unknown) => e);
    expect(errnoOf(error)).toBe('ENOENT');
  });

  it('gives undefined for anything without a string code, without throwing', () => {
    for (const thrown of [null, undefined, 'ENOENT', 42, new Error('plain'), { code: 7 }, { code: { toString: () => 'ENOENT' } }]) {
      expect(errnoOf(thrown)).toBeUndefined();
    }
    expect(errnoOf({ code: 'EEXIST' })).toBe('EEXIST');
  });
});
