/**
 * The timeline's line of tokens: the run's total, then what each agent used, most first.
 * Agent names come from the model and the server: each is cut as a tree row cuts it
 * ({@link label}), and past {@link TOKEN_AGENTS_SHOWN} agents the rest are counted, not
 * listed. Whole, a 1,000,000-character name made a 1,000,047-character line, rebuilt each frame.
 *
 * @module
 */
import { count } from './count.js';
import { label } from './long-text.js';

/** The most agents the line names. */
export const TOKEN_AGENTS_SHOWN = 10;

/**
 * The line for a run that used `total` tokens, `byAgent` of them per agent name; empty
 * while the run has no total yet.
 *
 * @example
 * ```ts
 * tokenLine(1200, new Map([['main', 200], ['explore', 1000]])); // 'Tokens: 1,200 for the run (explore 1,000, main 200)'
 * ```
 */
export function tokenLine(total: number | undefined, byAgent: ReadonlyMap<string, number>): string {
  if (total === undefined) return '';
  const ranked = [...byAgent].sort(([, a], [, b]) => b - a);
  const named = ranked.slice(0, TOKEN_AGENTS_SHOWN).map(([agent, tokens]) => `${label(agent)} ${count(tokens)}`);
  const more = ranked.length - named.length;
  if (more > 0) named.push(`and ${count(more)} more agent${more === 1 ? '' : 's'}`);
  return `Tokens: ${count(total)} for the run (${named.join(', ')})`;
}
