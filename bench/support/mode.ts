/**
 * `--quick` (or `BENCH_QUICK=1`): fewer rounds where a benchmark has rounds, for a first look
 * in under two minutes; the recorded numbers come from a full run.
 *
 * @module
 */
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

/** `full` rounds normally, `quick` rounds in quick mode. */
export function rounds(full: number, quick: number): number {
  return QUICK ? quick : full;
}
