/**
 * The options of the run registry (`run-registry.ts`), kept apart so that file stays small.
 *
 * @module
 */
import type { EventLog } from './event-log.js';
import type { SharedRuns } from './shared-runs.js';

/** Options of a `RunRegistry` (`engine.runs`). */
export interface RunRegistryOptions {
  /** Where the runs' events are appended, and read from. */
  readonly log: EventLog;
  /** How long a finished run stays attachable, in milliseconds. */
  readonly retentionMs: number;
  /** The most finished runs kept; the oldest beyond it are evicted. */
  readonly maxRetained: number;
  /**
   * The most bytes (estimated, see the registry's `retainedBytes`) finished runs' events
   * may hold together; the oldest beyond it are evicted. Default: no bound but the count.
   */
  readonly maxRetainedBytes?: number;
  /**
   * The runs of every engine sharing a backend: this registry publishes its own there, and
   * finds, attaches to, cancels and answers the others' through it.
   *
   * @internal
   */
  readonly shared?: SharedRuns;
}
