import { CliUsageError } from './cli-usage-error.js';

/** Parses a whole-number flag value, or says which flag is wrong and why. */
export function integerFlag(flag: string, raw: string, min: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min) {
    throw new CliUsageError(`${flag} must be a whole number >= ${min}, got "${raw}"`);
  }
  return value;
}
