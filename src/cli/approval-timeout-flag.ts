import type { HarnessEngineOptions } from '../engine/engine-options.js';
import { durationFlag } from './duration-flag.js';

/** `--approval-timeout D` of `run` and `serve`. */
export const APPROVAL_FLAGS = {
  'approval-timeout': { type: 'string' },
} as const;

/**
 * How long `rxharness serve` lets a call wait for an answer on the page by default: nobody
 * may be watching the page, and a run must not hold its tools and session for ever.
 */
export const SERVE_APPROVAL_TIMEOUT_MS = 10 * 60_000;

/**
 * The engine's `approvalTimeoutMs` from `--approval-timeout` (`10m`, `90s`, `500ms`; `0`
 * waits for ever), else `fallback` (none for the terminal's `run`, where the human is at the
 * keyboard; {@link SERVE_APPROVAL_TIMEOUT_MS} for `serve`). A bad value is bad usage.
 *
 * @example
 * ```ts
 * approvalTimeoutOption('2m', undefined); // { approvalTimeoutMs: 120000 }
 * ```
 */
export function approvalTimeoutOption(raw: string | undefined, fallback: number | undefined): Pick<HarnessEngineOptions, 'approvalTimeoutMs'> {
  const ms = raw === undefined ? fallback : durationFlag('--approval-timeout', raw);
  return ms === undefined || ms === 0 ? {} : { approvalTimeoutMs: ms };
}
