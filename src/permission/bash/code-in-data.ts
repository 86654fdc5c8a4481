/**
 * Text that bash runs as code although no `eval` is in sight. Arithmetic evaluates a
 * variable's value as an expression, and an array subscript in it runs any `$(...)` it holds
 * (`x='a[$(rm f)]'; echo $((x))` runs `rm f`); names given to `read`, `printf -v`, `unset`,
 * `test -v` and `declare` are evaluated the same way, `declare -a 'y=(...)'` expands its
 * quoted word again, `${x@P}` expands a value like a prompt, and `${!x}` takes a value as a
 * name.
 *
 * Such a line is unreadable only when it also holds text that may carry a command into it
 * (see {@link holdsCodeText} and the carriers `commandParts` notes): a `$(` or a backtick
 * that the shell does not run where it is written (quoted or escaped), or a value only known
 * at run time (a command's output, a file name from a glob, input from `read`). Either alone
 * is ordinary: `x=$((n + 1))`, `git commit -m 'fix $(x) later'`.
 *
 * @module
 */
import { codeVariable } from './runs/unreadable-runs.js';
import { readNames, runTimeArithmetic } from './run-time-names.js';
import { arithmeticNames } from './set-names.js';
import { PLACEHOLDER } from './shell-scan.js';
import { quoted } from '../quoted.js';

/** What {@link evaluatingSyntax} looks for in a line's text, with what to call it. Wider than bash: quoted text counts too. */
const SYNTAX: readonly (readonly [RegExp, string])[] = [
  [/\(\(/, 'arithmetic ("((")'],
  [/\$\[/, 'arithmetic ("$[")'],
  [/\$\{!/, 'an indirection ("${!")'],
  [/@P\}/, 'a prompt expansion ("@P}")'],
  // `${a[@]}` and `${a[*]}` list an array: no arithmetic there.
  [/\$\{#?[A-Za-z_]\w*\[(?![@*]\])/, 'an array subscript ("${name[")'],
  // `${x:-default}` and friends are not offsets; `${x:n}`, `${x: -1}`, `${x:0:n}` are.
  [/\$\{#?[A-Za-z_]\w*(?:\[[^\]]*\])?:(?![-=+?])/, 'a substring offset ("${name:")'],
];
/** Builtins that declare (and may export) variables: their subscripts, `-i` (integer) and `-n` (reference) evaluate values. */
export const DECLARERS: ReadonlySet<string> = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);
/** Builtins that take variable names as arguments, which bash evaluates when they have a subscript. */
const NAME_TAKERS: ReadonlySet<string> = new Set(['read', 'mapfile', 'readarray', 'unset', 'wait']);
/** Builtins that take names only after `-v`. */
const V_NAME_TAKERS: ReadonlySet<string> = new Set(['printf', 'test', '[']);
const ARITHMETIC_TESTS: ReadonlySet<string> = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-v']);
const SUBSCRIPTED = /^[A-Za-z_]\w*\[/;
const COMPOUND = /^[A-Za-z_]\w*\+?=\(/;

/** Why the text of a line may make bash evaluate a value as code, or `undefined`. */
export function evaluatingSyntax(text: string): string | undefined {
  return SYNTAX.find(([pattern]) => pattern.test(text))?.[1];
}

/**
 * Why a simple command makes bash evaluate text as code (see the module), or `undefined`.
 *
 * @param base - the command's name without its folder.
 * @param args - its arguments, quotes removed.
 * @param assignments - the assignments in front of it (`a[i]=1` has a subscript).
 */
export function evaluatingCommand(base: string, args: readonly string[], assignments: readonly string[]): string | undefined {
  if (assignments.some((word) => SUBSCRIPTED.test(word))) return 'an assignment to an array subscript';
  if (base === 'let') return '"let" arithmetic';
  // In `[[` only the arithmetic tests and `-v` evaluate; `[[ -n "$(git status)" ]]` is a string test.
  if (base === '[[' && args.some((arg) => ARITHMETIC_TESTS.has(arg))) return '"[[" with an arithmetic test or "-v"';
  // A name known only at run time (`read "$x"`) may hold a subscript as well.
  const named = (arg: string): boolean => SUBSCRIPTED.test(arg) || arg.startsWith('$');
  if (DECLARERS.has(base) && args.some((arg) => named(arg) || COMPOUND.test(arg) || /^[-+][A-Za-z]*[in]/.test(arg))) {
    return `${quoted(base)} of an array, an integer or a reference`;
  }
  // Only the names: `read -p "$msg" answer` prints its prompt, and bash takes `-t`, `-n`, `-u` values as plain numbers.
  const names = base === 'read' || base === 'mapfile' || base === 'readarray' ? readNames(base, args) : args;
  if (NAME_TAKERS.has(base) && names.some(named)) return `${quoted(base)} of an array element`;
  if (V_NAME_TAKERS.has(base) && args.includes('-v') && args.some(named)) return `${quoted(`${base} -v`)} of an array element`;
  return undefined;
}

/**
 * Whether a word (quotes removed) holds an arithmetic assignment to a variable that makes
 * programs run code, or to a name held in a variable: `x=PATH=1`, `PATH=1` in
 * `[[ PATH=1 -eq 1 ]]`, `$v=1`, or a brace expansion that may spell one. Where bash
 * evaluates it (`x=PATH=1; ((x)); ls`) it sets PATH, and `ls` runs `./1/ls`.
 */
export function assignsCodeVariable(word: string): boolean {
  if (runTimeArithmetic(word).length > 0) return true;
  // A brace expansion may spell any name (`{PA,}TH=1` is `PATH=1`): in doubt, with an `=`, it may be one.
  if (word.includes('=') && /\{[^}]*(?:,|\.\.)[^}]*\}/.test(word)) return true;
  return arithmeticNames(word).some((name) => codeVariable([`${name}=1`], []) !== undefined);
}

/**
 * Whether a word (quotes removed) holds a `$(` or a backtick as text: a command that runs
 * only if something evaluates the word (`'a[$(rm f)]'`, `"\$(rm f)"`).
 */
export function holdsCodeText(word: string): boolean {
  // A substitution's placeholder stands for one that runs where it is written, and is judged there.
  const text = word.replaceAll(PLACEHOLDER, '');
  return text.includes('$(') || text.includes('`');
}

/** An assignment whose value a `${…}` with an operator builds (`z=${z^^}=1`, `z=${a/x/PATH}`, `z=${!r}`): read in the raw statement, as the parser drops the braces. */
// A number as default (`${v:-0}`) builds nothing: the value is v's, or the number.
const BUILT_BY_EXPANSION = /(?:^|[\s;&|(])[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=[^\s;&|]*\$\{!?[A-Za-z_]\w*(?:\[[^\]]*\])?(?!:-\d*\})[\^,:%#/@]/;

/**
 * Why a simple command builds a variable's value at run time, or `undefined`: `z+==1` appends,
 * `printf -v z %s=1 PATH` formats. Arithmetic on the same line (`((z))`) then evaluates a text
 * the line does not show, which may be `PATH=1`.
 */
export function buildsValue(base: string, args: readonly string[], assignments: readonly string[]): string | undefined {
  // Digits appended (`x+=1`) end the value: they cannot make a name before an `=`, nor an operator.
  const appended = [...assignments, ...(DECLARERS.has(base) ? args : [])].find((word) => /^[A-Za-z_]\w*(?:\[[^\]]*\])?\+=(?!\d+$)/.test(word));
  if (appended !== undefined) return `a value appended to (${quoted(appended)})`;
  // A format with `%`, `\` or an expansion builds text the line does not show (`%s=1 PATH`, `\x50ATH=1`, `"$x"`); a plain one is read as a word.
  if (base === 'printf' && args.some((arg) => /^-v/.test(arg)) && args.some((arg) => /[%\\$]/.test(arg))) return 'a value printf builds ("printf -v")';
  return undefined;
}

/** Why a statement as written builds a value with a `${…}` operator (`z=${z^^}=1`), or `undefined`; see {@link buildsValue}. */
export function buildsValueByExpansion(statement: string): string | undefined {
  return BUILT_BY_EXPANSION.test(statement) ? 'a value built by an expansion ("${...}")' : undefined;
}
