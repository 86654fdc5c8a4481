/**
 * Variables a line sets without an assignment word: `read NAME`, `printf -v NAME`, `mapfile
 * NAME`, `getopts opts NAME`, the name of `for NAME in` / `select NAME in`, and a default
 * expansion `${NAME:=v}` / `${NAME=v}`. `PATH`, `HOME` and `LD_*` are exported already, and
 * with `set -a` (`set -o allexport`) every variable set is: so `read PATH <<< ./bin; ls` runs
 * `./bin/ls`, and `set -a; read GIT_WORK_TREE <<< src` moves where git writes. Each name set
 * is read as an assignment (`NAME=`) of a value the line does not show. Arithmetic sets names
 * too: `let PATH=1`, `$((PATH=1))`, a subscript `x[PATH=1]=2`, and `wait -p PATH`. A name only
 * known when the line runs (`read "$v"`, `printf -v "$v"`) is read as the assignment `$v=`, which
 * `codeVariable` judges unreadable: it may be any name.
 *
 * @module
 */

/** A variable's name, as bash takes one. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A default expansion that assigns (`${NAME:=v}`, `${NAME=v}`; the parser writes `${NAME:=v}` as `$NAME:=v`). */
const DEFAULT_ASSIGNMENT = /\$\{?([A-Za-z_][A-Za-z0-9_]*):?=/g;

/** An arithmetic assignment (`PATH=1`, `PATH+=1`, `PATH++`, `--PATH`), as `let`, `$((…))`, `((…))` and an array subscript read it. */
const ARITHMETIC_ASSIGNMENT = /([A-Za-z_][A-Za-z0-9_]*)\s*(?:(?:[-+*\/%&|^]|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)/g;
/** Text bash reads as arithmetic: `$((…))`, `((…))`, `$[…]`, and a subscript `[…]` (`x[PATH=1]=2`, `${a[PATH=1]}`). */
const ARITHMETIC = /\(\(([\s\S]*?)\)\)|\[([^\]]*)\]/g;

/** The names an arithmetic text assigns (`PATH=1, i++`: `PATH`, `i`). */
export function arithmeticNames(text: string): string[] {
  return [...text.matchAll(ARITHMETIC_ASSIGNMENT)].map((m) => (m[1] ?? m[2])!);
}

/**
 * The variables `base` with `args` sets, as assignments without a value (`PATH=`); `words`:
 * all its words, for the default expansions among them.
 *
 * @example
 * ```ts
 * variablesSet('read', ['-r', 'PATH'], []); // ['PATH=']
 * variablesSet('printf', ['-v', 'GIT_DIR', '%s', 'x'], []); // ['GIT_DIR=']
 * variablesSet('for', ['PATH', 'in', './bin'], []); // ['PATH=']
 * variablesSet(':', ['$PATH:=./bin'], ['$PATH:=./bin']); // ['PATH=']
 * ```
 */
export function variablesSet(base: string, args: readonly string[], words: readonly string[]): string[] {
  const names = words.flatMap((word) => [...word.matchAll(DEFAULT_ASSIGNMENT)].map((m) => m[1]!));
  // Arithmetic assigns too (`: $((PATH=1))`, `x[PATH=1]=2`); in doubt a bracket glob counts as well.
  names.push(...words.flatMap((word) => [...word.matchAll(ARITHMETIC)].flatMap((m) => arithmeticNames(m[1] ?? m[2] ?? ''))));
  switch (base) {
    case 'let':
      names.push(...args.flatMap(arithmeticNames));
      break;
    case 'wait':
      // `wait -p NAME` sets NAME to the id of the job that ended.
      args.forEach((arg, i) => {
        const value = arg === '-p' ? args[i + 1] : /^-[fn]*p./.test(arg) ? arg.slice(arg.indexOf('p') + 1) : undefined;
        if (value !== undefined && NAME.test(value)) names.push(value);
      });
      break;
    case 'read':
    case 'mapfile':
    case 'readarray':
      // Every word that may be a name: in doubt an option's value (`read -p PATH`) counts too.
      names.push(...args.filter((arg) => NAME.test(arg)));
      break;
    case 'getopts':
      names.push(...args.slice(1, 2).filter((arg) => NAME.test(arg)));
      break;
    case 'printf':
      args.forEach((arg, i) => {
        const value = arg === '-v' ? args[i + 1] : /^-v./.test(arg) ? arg.slice(2) : undefined;
        if (value !== undefined && NAME.test(value)) names.push(value);
      });
      break;
    case 'for':
    case 'select':
      if (NAME.test(args[0] ?? '')) names.push(args[0]!);
      break;
  }
  return [...names.map((name) => `${name}=`), ...runTimeNames(base, args).map((word) => `${word}=`)];
}

/** Letters of `read` and `mapfile` taking a value that is no name (`read -p "$prompt"`); `read -a NAME` takes a name. */
const READ_VALUED = 'adinNptu';
const MAPFILE_VALUED = 'dnOsuCc';
/** An arithmetic assignment to a name held in a variable (`$v=1`, `${v}+=1`, `$v++`, `--$v`). */
const RUN_TIME_ARITHMETIC = /\$\{?[A-Za-z_]\w*\}?\s*(?:(?:[-+*\/%&|^]|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)\s*\$/;

/**
 * The words naming a variable `base` sets whose name is only known when the line runs:
 * `read "$v"`, `read -a "$v"`, `mapfile "$v"`, `printf -v "$v"`, `wait -p "$v"`, `getopts o "$v"`,
 * `let "$v=1"`. Such a name may be `PATH`, or any other.
 */
function runTimeNames(base: string, args: readonly string[]): string[] {
  const dynamic = (word: string | undefined): word is string => word !== undefined && word.includes('$');
  switch (base) {
    case 'read':
    case 'mapfile':
    case 'readarray':
      return givenNames(args, base === 'read' ? READ_VALUED : MAPFILE_VALUED, base === 'read' ? 'a' : '').filter(dynamic);
    case 'printf':
    case 'wait': {
      const letter = base === 'printf' ? 'v' : 'p';
      return args.flatMap((arg, i) => (arg === `-${letter}` ? [args[i + 1]] : new RegExp(`^-[A-Za-z]*${letter}(.+)$`, 's').exec(arg)?.[1] ?? [])).filter(dynamic);
    }
    case 'getopts':
      return [args[1]].filter(dynamic);
    case 'let':
      return args.filter((arg) => RUN_TIME_ARITHMETIC.test(arg));
    default:
      return [];
  }
}

/** The operands of `read` or `mapfile` (getopt style, `valued` letters taking a value), and the values of the letters in `naming`, which are names. */
function givenNames(args: readonly string[], valued: string, naming: string): string[] {
  const names: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') return [...names, ...args.slice(i + 1)];
    if (!/^-[A-Za-z]/.test(arg)) {
      names.push(arg);
      continue;
    }
    const at = [...arg.slice(1)].findIndex((c) => valued.includes(c)) + 1;
    if (at === 0) continue;
    const value = at < arg.length - 1 ? arg.slice(at + 1) : args[(i += 1)];
    if (value !== undefined && naming.includes(arg[at]!)) names.push(value);
  }
  return names;
}
