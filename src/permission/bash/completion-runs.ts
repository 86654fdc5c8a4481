/**
 * What the completion builtins run: `compgen -C cmd` runs `cmd` (with the words completed
 * after it), `compgen -W list` expands its list as bash expands a word, `$(...)` and
 * backticks included, even when the line quotes it (`compgen -W '$(rm y)' x`). `complete`
 * keeps the same options for a later completion: judged alike.
 *
 * @module
 */
import { optionValues } from './shell-programs.js';
import { quoted } from '../quoted.js';

/** What a completion builtin runs: `lines` to judge as command lines, `unreadable` why the line cannot be read. */
export interface CompletionRuns {
  readonly lines: readonly string[];
  readonly unreadable?: string;
}

const NONE: CompletionRuns = Object.freeze({ lines: Object.freeze([]) });

/**
 * The command lines `program` (`compgen`, `complete`) runs from `args`, judged with the words
 * bash adds (`compgen -C rm x` runs `rm compgen x ''`), and whether a `-W` list holds an expansion.
 *
 * @example
 * ```ts
 * completionRuns('compgen', ['-C', 'rm y', 'x']); // { lines: ['rm y "$COMP_WORDS"'] }
 * completionRuns('compgen', ['-W', '$(rm y)', 'x']).unreadable; // '"compgen -W" of a list with an expansion ...'
 * ```
 */
export function completionRuns(program: string, args: readonly string[]): CompletionRuns {
  if (program !== 'compgen' && program !== 'complete') return NONE;
  const lines = optionValues(args, /^-[A-Za-z]*C(.*)$/s).map((v) => `${v} "$COMP_WORDS"`);
  const expanded = optionValues(args, /^-[A-Za-z]*W(.*)$/s).find((v) => /[$`]/.test(v));
  if (expanded === undefined) return { lines };
  return { lines, unreadable: `${quoted(`${program} -W`)} of a list with an expansion (${quoted(expanded)}), which bash expands when it completes` };
}
