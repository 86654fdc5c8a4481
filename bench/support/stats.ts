/** Small statistics for benchmark samples. */

/** The median (mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `a[i] / b[i]` for every run i. */
export function ratios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, i) => value / b[i]!);
}

/**
 * `a[i]` against the mean of `around[i]` and `around[i + 1]`: the runs of the baseline just
 * before and after it (`around` has one more value than `a`), so a drift of the machine's
 * speed over the seconds of the three runs cancels out.
 */
export function bracketed(a: readonly number[], around: readonly number[]): number[] {
  if (around.length !== a.length + 1) throw new RangeError(`bracketed: ${a.length} runs need ${a.length + 1} around them, got ${around.length}`);
  return a.map((value, i) => value / ((around[i]! + around[i + 1]!) / 2));
}

/** Least-squares slope of `ys` over `xs` (units of y per unit of x). */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Milliseconds since `start` (a `performance.now()` value). */
export function since(start: number): number {
  return performance.now() - start;
}

/** Orders `sides` differently in each round (rotation), so no side always goes first. */
export function rotate<T>(sides: readonly T[], round: number): T[] {
  const k = round % sides.length;
  return [...sides.slice(k), ...sides.slice(0, k)];
}

/** The `p`-th percentile (nearest rank) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A sample's size, percentiles and maximum. */
export function spread(values: readonly number[]) {
  return { samples: values.length, p50: percentile(values, 50), p90: percentile(values, 90), p99: percentile(values, 99), max: Math.max(...values) };
}
