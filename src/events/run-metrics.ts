/**
 * Usage and timing of a run. A parent's token counts include every child it ran, so the
 * metrics of the main agent's `RunEnd` are the cost of the whole tree.
 */
export interface RunMetrics {
  /** Input tokens the model server reported, summed over every request (one it reported no usage for adds 0). */
  readonly promptTokens: number;
  /** Output tokens the model server reported, summed over every request. */
  readonly completionTokens: number;
  /** Prompt plus completion tokens, as the server reported them. */
  readonly totalTokens: number;
  /** Wall time of the run in milliseconds. */
  readonly durationMs: number;
  /** How many tasks were delegated by this run and below it. */
  readonly tasks: number;
}

/** Metrics of a run that has not used anything yet. */
export const EMPTY_METRICS: RunMetrics = Object.freeze({
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  durationMs: 0,
  tasks: 0,
});
