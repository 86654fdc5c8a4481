import { describe, expect, it } from 'vitest';
import { TakenMarks } from '../../src/backend/taken-marks.js';

// The marks' bounds, by kind: words (a message naming results the copy knows nothing of) push
// out only words; this engine's own takes and results of a known conversation stay.
const FLOOD = 30_000;

describe('TakenMarks', () => {
  it('a flood of words pushes out only words: own takes and known results stay marked', () => {
    const marks = new TakenMarks();
    marks.mark('own', 'ses_a', true);
    marks.mark('known', 'ses_b', false);
    for (let i = 0; i < FLOOD; i++) marks.mark(`forged_${i}`, undefined, false);
    expect(marks.isHere('own')).toBe(true);
    expect(marks.home('known')).toBe('ses_b');
    expect(marks.has('forged_0')).toBe(false); // the oldest word went past the bound
    expect(marks.has(`forged_${FLOOD - 1}`)).toBe(true);
  });

  it('a mark only moves up: a later word keeps an own take and a known home', () => {
    const marks = new TakenMarks();
    marks.mark('own', 'ses_a', true);
    marks.mark('known', 'ses_b', false);
    marks.mark('own', undefined, false);
    marks.mark('known', undefined, false);
    expect(marks.isHere('own')).toBe(true);
    expect(marks.home('own')).toBe('ses_a');
    expect(marks.home('known')).toBe('ses_b');
    // A word pushed out among words would otherwise have taken them with it.
    for (let i = 0; i < FLOOD; i++) marks.mark(`w_${i}`, undefined, false);
    expect(marks.has('own') && marks.has('known')).toBe(true);
  });

  it('a long-lived engine keeps its own takes bounded, the oldest forgotten first', () => {
    const marks = new TakenMarks();
    for (let i = 0; i < FLOOD; i++) marks.mark(`take_${i}`, 'ses_a', true);
    expect(marks.has('take_0')).toBe(false);
    expect(marks.isHere(`take_${FLOOD - 1}`)).toBe(true);
  });

  it('delete forgets a mark of any kind', () => {
    const marks = new TakenMarks();
    marks.mark('a', 'ses_a', true);
    marks.mark('b', 'ses_b', false);
    marks.mark('c', undefined, false);
    for (const key of ['a', 'b', 'c']) marks.delete(key);
    expect(['a', 'b', 'c'].some((key) => marks.has(key))).toBe(false);
  });
});
