import { CliUsageError } from './cli-usage-error.js';

/**
 * Parses a whole-number flag value, or says which flag is wrong and why.
 *
 * @param max - The largest value taken (default: any safe integer); a count of milliseconds
 *   a timer is armed with passes `MAX_TIMER_MS`, above which Node fires it after 1 ms.
 * @example
 * ```ts
 * integerFlag('--max-steps', '30', 1); // 30
 * ```
 */
export function integerFlag(flag: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new CliUsageError(`${flag} must be a whole number >= ${min}, got "${raw}"`);
  }
  if (value > max) throw new CliUsageError(`${flag} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}
