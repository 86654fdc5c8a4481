import { describe, expect, it } from 'vitest';
import { startLineMatcher } from '../../src/tools/builtin/line-matcher.js';

/** A line on which `^(a+)+$` backtracks for longer than any test runs (2^40 ways to fail). */
const CATASTROPHIC_LINE = `${'a'.repeat(40)}b`;

describe('startLineMatcher', () => {
  it('answers the matching lines with their indexes, at most max + 1, file after file', async () => {
    const matcher = startLineMatcher('TODO\\b', new AbortController().signal);
    try {
      expect(await matcher.match('x\n// TODO one\r\nTODOS\nTODO two', 10)).toEqual([
        [1, '// TODO one'],
        [3, 'TODO two'],
      ]);
      expect(await matcher.match('TODO\nTODO\nTODO\nTODO', 1)).toEqual([
        [0, 'TODO'],
        [1, 'TODO'],
      ]);
      expect(await matcher.match('nothing here', 5)).toEqual([]);
    } finally {
      await matcher.close();
    }
  });

  it('a catastrophic pattern blocks only its worker: timers still run, and abort stops it', async () => {
    const controller = new AbortController();
    const matcher = startLineMatcher('^(a+)+$', controller.signal);
    const searching = matcher.match(CATASTROPHIC_LINE, 10);
    // This timer can fire only if the main thread is free while the worker spins.
    setTimeout(() => controller.abort(), 50);
    await expect(searching).rejects.toThrow('the search was stopped');
    await expect(matcher.match('a', 1)).rejects.toThrow('the search was stopped');
    await matcher.close(); // resolves: the spinning thread really exited
  });

  it('after close, every match rejects and the thread is gone', async () => {
    const matcher = startLineMatcher('x', new AbortController().signal);
    await matcher.close();
    await expect(matcher.match('x', 1)).rejects.toThrow('the search was stopped');
  });
});
