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
  const lower = word.toLowerCase();
  const squashed = squash(word);
  const sameLetters = candidates.find((candidate) => candidate.toLowerCase() === lower)
    ?? candidates.find((candidate) => squash(candidate) === squashed);
  if (sameLetters !== undefined) return sameLetters;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const edits = distance(lower, candidate.toLowerCase());
    const allowed = maxDistance ?? (candidate.length <= 5 ? 1 : 2);
    if (edits <= allowed && edits < bestDistance) [best, bestDistance] = [candidate, edits];
  }
  return best;
}

/** `word` in lower case without `-` and `_`: `max_turns`, `maxTurns` and `max-turns` meet. */
function squash(word: string): string {
  return word.toLowerCase().replace(/[-_]/g, '');
}
