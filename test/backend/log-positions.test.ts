/**
 * The positions a Redis event log keeps of its stopped readers are bounded: the oldest is
 * forgotten first (its next reader reads the log from its start once), and each goes to one
 * reader only.
 */
import { describe, expect, it } from 'vitest';
import { LogOrder } from '../../src/backend/log-order.js';
import { LogPositions } from '../../src/backend/log-positions.js';

const at = (ms: number) => ({ last: `${ms}-0`, order: new LogOrder(), count: 16 });

describe('LogPositions', () => {
  it('keeps the last 1000 positions, each taken once, per run and seq', () => {
    const positions = new LogPositions();
    for (let seq = 1; seq <= 1001; seq++) positions.remember('r', seq, at(seq));
    expect(positions.take('r', 1)).toBeUndefined(); // the oldest, forgotten
    expect(positions.take('r', 2)?.last).toBe('2-0');
    expect(positions.take('r', 2)).toBeUndefined(); // taken already
    expect(positions.take('other', 1001)).toBeUndefined();
    expect(positions.take('r', 1001)?.last).toBe('1001-0');
  });

  it('a position remembered again counts as the newest', () => {
    const positions = new LogPositions();
    positions.remember('r', 1, at(1));
    for (let seq = 2; seq <= 1000; seq++) positions.remember('r', seq, at(seq));
    positions.remember('r', 1, at(5000));
    positions.remember('r', 1001, at(1001));
    expect(positions.take('r', 1)?.last).toBe('5000-0');
    expect(positions.take('r', 2)).toBeUndefined();
  });
});
