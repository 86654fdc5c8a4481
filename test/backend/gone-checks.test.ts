/**
 * `GoneChecks`, which coalesces the read-backs of a channel's `forget` messages per id: one
 * read in flight per id, and one more after it for all the forgets that came meanwhile (the
 * read in flight may have been answered before a real forget's record was deleted).
 */
import { describe, expect, it } from 'vitest';
import { GoneChecks } from '../../src/backend/gone-checks.js';

describe('GoneChecks', () => {
  it('reads an id once while its read is in flight, then once more for every forget that came meanwhile', () => {
    const checks = new GoneChecks();
    expect(checks.start(['task_a', 'task_b'])).toEqual(['task_a', 'task_b']);
    for (let i = 0; i < 10_000; i++) expect(checks.start(['task_a'])).toEqual([]);
    expect(checks.start(['task_a', 'task_c'])).toEqual(['task_c']);
    // task_a was named again while in flight: read again; task_b was not.
    expect(checks.done(['task_a', 'task_b'])).toEqual(['task_a']);
    expect(checks.done(['task_c'])).toEqual([]);
    // Answered, an id is read at once again.
    expect(checks.start(['task_a', 'task_b'])).toEqual(['task_a', 'task_b']);
  });
});
