import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../src/cli/cli-usage-error.js';
import { integerFlag } from '../../src/cli/integer-flag.js';
import { MAX_TIMER_MS } from '../../src/validation/max-timer.js';

describe('integerFlag with a maximum', () => {
  it('takes the bounds themselves', () => {
    expect(integerFlag('--n', '0', 0, MAX_TIMER_MS)).toBe(0);
    expect(integerFlag('--n', String(MAX_TIMER_MS), 0, MAX_TIMER_MS)).toBe(MAX_TIMER_MS);
  });

  it('refuses one more, naming the flag and the range', () => {
    expect(() => integerFlag('--n', String(MAX_TIMER_MS + 1), 0, MAX_TIMER_MS)).toThrow(
      new CliUsageError(`--n must be a whole number from 0 to ${MAX_TIMER_MS}, got "${MAX_TIMER_MS + 1}"`),
    );
  });
});
