/**
 * The order of Redis stream ids, and where a stream followed by several readers is read after.
 *
 * @module
 */
import type { FollowingReader } from './follower-reader.js';

/** The smallest `last` of the readers (where the stream is read after). @internal */
export function oldest(readers: ReadonlySet<FollowingReader>): string {
  let min: string | undefined;
  for (const reader of readers) if (min === undefined || compareIds(reader.last, min) < 0) min = reader.last;
  return min ?? '0-0';
}

/** Orders stream ids (`<ms>-<seq>`, decimal without leading zeros). @internal */
export function compareIds(a: string, b: string): number {
  const dashA = a.indexOf('-');
  const dashB = b.indexOf('-');
  return compareDecimal(a.slice(0, dashA), b.slice(0, dashB)) || compareDecimal(a.slice(dashA + 1), b.slice(dashB + 1));
}

function compareDecimal(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
