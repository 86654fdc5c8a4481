/** One line of the benchmark table. */
export interface ResultRow {
  readonly benchmark: string;
  readonly metric: string;
  /** The unit of `rxharness` and `baseline` (ms, events/s, MB...). */
  readonly unit: string;
  readonly rxharness: number;
  /** What rxharness is compared with (absent when there is nothing to compare). */
  readonly baseline?: number;
  /** The median of the per-run ratios rxharness / baseline (not the ratio of the medians). */
  readonly ratio?: number;
  /** The target, as text (e.g. `<= 1.10x`); absent for figures reported for information. */
  readonly target?: string;
  /** Whether the target is met; absent without a target. */
  readonly pass?: boolean;
  /** Per-run samples and anything else worth keeping in `--json`. */
  readonly details?: Readonly<Record<string, unknown>>;
}
