/**
 * Variables a line sets whose names are only known when it runs: `read "$v"`, `printf -v "$v"`,
 * `(( $v = 1 ))`, `read PAT{H,X}`, `export TMP*=src`. Such a name may be `PATH`, or any other
 * (`v=PATH; (( $v = 1 )); ls` runs `./1/ls`). The one place that tells such a name (see
 * {@link runTimeName}) or option (see {@link runTimeOption}) from a shown one. Also which words of
 * `read` and `mapfile` are names at all: `read -p "$msg" answer` names only `answer`, its prompt
 * is printed, never evaluated.
 *
 * @module
 */
import { quoted } from '../quoted.js';

/** A `$` in a variable's name (before its `=` or subscript): the name is only known when the line runs. */
const RUN_TIME_NAME = /^[^=[]*\$/;
/** A brace (`{PATH,X}=`) or glob (`PAT?=`, `PA*=`) in a variable's name, before its `=` or subscript: bash expands the word into names. */
const EXPANDED_NAME = /^[^=[]*[{*?]/;

/**
 * Whether the variable a word names (`NAME=value`, a name given to `read` or `printf -v`, or a
 * declarer's word: `export "$v"` with `v=TMPDIR=src` sets TMPDIR) is only known when the line
 * runs: built from an expansion (`$v=x`, `read "$v"`), or expanded from a brace or glob
 * (`TMP{DIR,X}=x`, `read PAT{H,X}`, `export PAT?=x` with a file named `PATH=x`).
 *
 * @example
 * ```ts
 * runTimeName('$v=src'); // true
 * runTimeName('PAT{H,X}'); // true
 * runTimeName('PATH=$x'); // false: the name is shown, only its value is not
 * ```
 */
export function runTimeName(word: string): boolean {
  return RUN_TIME_NAME.test(word) || EXPANDED_NAME.test(word);
}

/**
 * Whether a declarer's option word has letters only known when the line runs (`"-$o"`, `-x$o`,
 * `+$o`): `o=n` makes `declare "-$o" r=TMPDIR` a name reference, and `o=x` exports.
 */
export function runTimeOption(word: string): boolean {
  return /^[-+][A-Za-z]*\$/.test(word);
}

/** Letters of `read` and `mapfile` taking a value that is no name (`read -p "$prompt"`); `read -a NAME` takes a name. */
const READ_VALUED = 'adinNptu';
const MAPFILE_VALUED = 'dnOsuCc';
/** An arithmetic assignment to a name held in a variable (`$v=1`, `${v}+=1`, `$v++`, `--$v`). */
const RUN_TIME_ARITHMETIC = /(\$\{?[A-Za-z_]\w*\}?)\s*(?:(?:[-+*\/%&|^]|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)\s*(\$\{?[A-Za-z_]\w*\}?)/g;

/**
 * Why printf's format may be read as its options (`printf "$fmt" ./bin` with `fmt=-vPATH`
 * sets PATH: bash parses `-vNAME` from the first word that is no option, even after `-v x`),
 * or `undefined`: a format only known at run time, a variable, a substitution, a glob (a file
 * named `-vPATH`), a brace expansion (`{-vPATH,./bin}`). After `--` the word is a format only.
 */
export function runTimeFormat(base: string, args: readonly { readonly text: string; readonly glob: boolean }[]): string | undefined {
  if (base !== 'printf') return undefined;
  for (let i = 0; i < args.length; i += 1) {
    const { text, glob } = args[i]!;
    if (text === '--') return undefined;
    if (text === '-v') i += 1;
    else if (!/^-v./s.test(text)) {
      if (!glob && !text.includes('$') && !/^\{.*-/s.test(text)) return undefined;
      return `a variable whose name is only known when the line runs (printf's format ${quoted(text)}, read as "-vNAME" when it starts with "-"), which may be PATH or any other`;
    }
  }
  return undefined;
}

/** A name joined from expansions in arithmetic text (`$x$y`, `${x}TH`, `PA$x`): with `x=PA`, `y=TH=1` it is `PATH=1`. */
const JOINED_ARITHMETIC = /[\w}]\$|\$\{?\w+\}?\$|\$\{\w+\}\w/;

/** The names held in variables that an arithmetic text assigns (`$v = 1, ${w}--`: `$v`, `${w}`). */
export function runTimeArithmetic(text: string): string[] {
  return [...text.matchAll(RUN_TIME_ARITHMETIC)].map((m) => (m[1] ?? m[2])!);
}

/** The run-time names of an arithmetic text: those it assigns (see {@link runTimeArithmetic}), and those joined from expansions. */
export function runTimeArithmeticNames(text: string): string[] {
  return [...runTimeArithmetic(text), ...joinedNames(text)];
}

/** The names an arithmetic text joins from expansions (`$x$y`, `${x}TH`, `PA$x`; not `$j+1`). */
export function joinedNames(text: string): string[] {
  // Token by token: one pattern over the whole text would try every start against every end.
  return (text.match(/[\w${}]+/g) ?? []).filter((token) => JOINED_ARITHMETIC.test(token));
}

/**
 * The words naming a variable `base` sets whose name is only known when the line runs (see
 * {@link runTimeName}): `read "$v"`, `read -a "$v"`, `read -r"$o"` (`o=aPATH`), `read PAT{H,X}`,
 * `mapfile "$v"`, `printf -v "$v"`, `printf -v TMP*`, `printf "-$o"`, `wait -p "$v"`,
 * `getopts o TMP{DIR,X}`, `let "$v=1"`.
 */
export function runTimeNames(base: string, args: readonly string[]): string[] {
  // A `$` in a subscript counts too (`read "a[$i]"`): bash evaluates it, and `i='PATH=1'` assigns PATH.
  const dynamic = (word: string | undefined): word is string => word !== undefined && (word.includes('$') || runTimeName(word));
  switch (base) {
    case 'read':
    case 'mapfile':
    case 'readarray':
      return readNames(base, args).filter(dynamic);
    case 'printf':
    case 'wait': {
      const letter = base === 'printf' ? 'v' : 'p';
      const joined = new RegExp(`^-[A-Za-z]*${letter}(.+)$`, 's');
      // `printf "-$o" ./bin` with `o=vPATH`: letters known only at run time may be the option.
      const last = new RegExp(`^-[A-Za-z]*${letter}$`); // `wait -np "$v"`: the value is the next word
      return args.flatMap((arg, i) => (last.test(arg) ? [args[i + 1]] : /^-[A-Za-z]*\$/.test(arg) ? [arg] : joined.exec(arg)?.[1] ?? [])).filter(dynamic);
    }
    case 'getopts':
      return [args[1]].filter(dynamic);
    case 'let':
      return args.filter((arg) => runTimeArithmeticNames(arg).length > 0);
    default:
      return [];
  }
}

/**
 * The words of `read`, `mapfile` or `readarray` that are names of variables it sets: its
 * operands and the value of `read -a`, not the values of its other options (`-p "$msg"`).
 */
export function readNames(base: string, args: readonly string[]): string[] {
  return base === 'read' ? givenNames(args, READ_VALUED, 'a') : givenNames(args, MAPFILE_VALUED, '');
}

/**
 * The operands of a builtin parsed getopt style, `valued` letters taking a value, and the
 * values of the letters in `naming`, which are names. Like bash, options end at the first
 * operand (`read a -p "$v"` names `-p` and `$v`). An option word whose letters are only known
 * at run time (`-r"$o"`, which `o=aPATH` makes `-raPATH`) counts as a name.
 */
function givenNames(args: readonly string[], valued: string, naming: string): string[] {
  const names: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') return [...names, ...args.slice(i + 1)];
    if (!/^-[A-Za-z$]/.test(arg)) return [...names, ...args.slice(i)];
    const at = [...arg.slice(1)].findIndex((c) => valued.includes(c) || c === '$') + 1;
    if (at === 0) continue;
    if (arg[at] === '$') {
      names.push(arg);
      continue;
    }
    const value = at < arg.length - 1 ? arg.slice(at + 1) : args[(i += 1)];
    if (value !== undefined && naming.includes(arg[at]!)) names.push(value);
  }
  return names;
}
