/** How much a task tracker keeps; every bound has a default. */
export interface TaskTrackerLimits {
  /** Finished tasks kept (their snapshots), oldest forgotten first. Default 1,000. */
  readonly retainFinished?: number;
  /**
   * What finished tasks' event logs and results may weigh together (UTF-16 units of their
   * JSON and text). Over it, the oldest logs are dropped first (`events()` answers `[]`),
   * then the oldest tasks. Default 32 MiB.
   */
  readonly retainedBytes?: number;
  /** What one running background task's events may weigh before its deltas are no longer kept. Default 8 MiB. */
  readonly runningEventBytes?: number;
  /** Finished background results waiting for their conversation's next prompt, at most. Default 1,000. */
  readonly undeliveredResults?: number;
  /** What those waiting results may weigh (UTF-16 units of text). Default 16 MiB. */
  readonly undeliveredChars?: number;
}

/** The defaults of {@link TaskTrackerLimits}. */
export const DEFAULT_TASK_TRACKER_LIMITS: Required<TaskTrackerLimits> = Object.freeze({
  retainFinished: 1000,
  retainedBytes: 32 * 1024 * 1024,
  runningEventBytes: 8 * 1024 * 1024,
  undeliveredResults: 1000,
  undeliveredChars: 16 * 1024 * 1024,
});
