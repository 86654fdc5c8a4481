/**
 * Small helpers of the run registry (`run-registry.ts`), kept apart so that file stays small.
 *
 * @module
 */
import type { RunInfo } from './run-types.js';

/**
 * A log write whose failure nobody can act on here (a memory log does not fail; a remote
 * one reports its own errors to its readers): never an unhandled rejection.
 *
 * @internal
 */
export function quietly(write: unknown): void {
  if (write instanceof Promise) write.catch(() => undefined);
}

/**
 * `info` ended now in `state`. `Object.assign`, not `{ ...info, state, endedAt }`: V8 adds a
 * field to a spread copy on a slow path, about a microsecond each (docs/performance.md, stop 42).
 *
 * @internal
 */
export function ended(info: RunInfo, state: RunInfo['state']): RunInfo {
  return Object.assign({}, info, { state, endedAt: Date.now() });
}
