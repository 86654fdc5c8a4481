import { distance } from 'fastest-levenshtein';

/**
 * The candidate `word` was probably meant to be, or `undefined` when none is close: the
 * same letters in another case or with `-`/`_` (`max_turns` for `maxTurns`), else the
 * nearest by edit distance within `maxDistance`. One rule for every did-you-mean (unknown
 * keys of an agent definition, unknown CLI flags), so they agree on what "close" means.
 *
 * @param word - what the user wrote.
 * @param candidates - the accepted spellings; on a tie the first wins.
 * @param maxDistance - the most edits allowed; by default 1 for a candidate of up to five
 *   letters and 2 for a longer one (a short word two edits away is usually another word).
 * @example
 * ```ts
 * closest('disalowedTools', ['tools', 'disallowedTools']); // 'disallowedTools'
 * closest('max-turns', ['maxTurns']); // 'maxTurns'
 * closest('skills', ['tools', 'hidden']); // undefined
 * ```
 */
export function closest(word: string, candidates: readonly string[], maxDistance?: number): string | undefined {
  const squashed = squash(word);
  // Squashing only shortens, and each letter more than a candidate has is one edit: a word
  // longer than every candidate by more than any allowed distance is near none of them.
  if (squashed.length > Math.max(0, ...candidates.map((candidate) => candidate.length)) + (maxDistance ?? 2)) return undefined;
  const lower = word.toLowerCase();
  const sameLetters = candidates.find((candidate) => candidate.toLowerCase() === lower)
    ?? candidates.find((candidate) => squash(candidate) === squashed);
  if (sameLetters !== undefined) return sameLetters;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const allowed = maxDistance ?? (candidate.length <= 5 ? 1 : 2);
    // Lengths further apart than `allowed` need more edits than that: the distance, whose cost
    // grows with the word, is not worth computing.
    if (Math.abs(lower.length - candidate.length) > allowed) continue;
    const edits = distance(lower, candidate.toLowerCase());
    if (edits <= allowed && edits < bestDistance) [best, bestDistance] = [candidate, edits];
  }
  return best;
}

/** `word` in lower case without `-` and `_`: `max_turns`, `maxTurns` and `max-turns` meet. */
function squash(word: string): string {
  return word.toLowerCase().replace(/[-_]/g, '');
}
