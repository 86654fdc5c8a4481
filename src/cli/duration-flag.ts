import { MAX_TIMER_MS } from '../validation/max-timer.js';
import { CliUsageError } from './cli-usage-error.js';

/**
 * A duration flag's value in milliseconds: `90` or `90s` seconds, `500ms`, `2m` minutes.
 * Anything else is bad usage naming the flag; so is a duration longer than a timer holds
 * (`MAX_TIMER_MS`, about 24.8 days), which Node would fire after 1 ms instead.
 *
 * @example
 * ```ts
 * durationFlag('--approval-timeout', '10m'); // 600000
 * ```
 */
export function durationFlag(flag: string, raw: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(raw);
  if (!match) throw new CliUsageError(`${flag} must be a duration: seconds (60 or 60s), milliseconds (500ms) or minutes (2m), got "${raw}"`);
  const unit = match[2] === 'ms' ? 1 : match[2] === 'm' ? 60_000 : 1_000;
  const ms = Math.round(Number(match[1]) * unit);
  if (ms > MAX_TIMER_MS) {
    throw new CliUsageError(`${flag} must be at most ${MAX_TIMER_MS}ms (35791m, about 24.8 days: the longest a timer holds), got "${raw}"`);
  }
  return ms;
}
