/**
 * Variables a line sets without an assignment word: `read NAME`, `printf -v NAME`, `mapfile
 * NAME`, `getopts opts NAME`, the name of `for NAME in` / `select NAME in`, and a default
 * expansion `${NAME:=v}` / `${NAME=v}`. `PATH`, `HOME` and `LD_*` are exported already, and
 * with `set -a` (`set -o allexport`) every variable set is: so `read PATH <<< ./bin; ls` runs
 * `./bin/ls`, and `set -a; read GIT_WORK_TREE <<< src` moves where git writes. Each name set
 * is read as an assignment (`NAME=`) of a value the line does not show. Arithmetic sets names
 * too: `let PATH=1`, `$((PATH=1))`, a subscript `x[PATH=1]=2`, and `wait -p PATH`. A name only
 * known when the line runs (`read "$v"`, `printf -v "$v"`, `${!v:=x}`, `read TMP{DIR,X}`) is read as
 * the assignment `$v=`, which `codeVariable` judges unreadable: it may be any name.
 *
 * @module
 */
import { PLACEHOLDER } from './line-reader.js';
import { readNames, runTimeArithmeticNames, runTimeNames } from './run-time-names.js';

/** A variable's name, as bash takes one. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A default expansion that assigns (`${NAME:=v}`, `${NAME=v}`; the parser writes `${NAME:=v}` as `$NAME:=v`). */
const DEFAULT_ASSIGNMENT = /\$\{?([A-Za-z_][A-Za-z0-9_]*):?=/g;

/** An indirect default expansion that assigns (`${!v:=x}`, written `$!v:=x`): it sets the variable v names. */
const INDIRECT_ASSIGNMENT = /\$\{?!([A-Za-z_][A-Za-z0-9_]*):?=/g;

/** An arithmetic assignment (`PATH=1`, `PATH[0]+=1` (element 0 is PATH itself), `PATH++`, `--PATH`), as `let`, `$((…))`, `((…))` and an array subscript read it. A name is matched whole only: tried inside a long word, it would cost a pass per letter. */
const ARITHMETIC_ASSIGNMENT = /(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\s*(?:(?:[-+*\/%&|^]|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)/g;
/** Text bash reads as arithmetic: `$((…))`, `((…))`, `$[…]`, and a subscript `[…]` (`x[PATH=1]=2`, `${a[PATH=1]}`, one level nested: `x[PATH[0]=1]=2`). */
const ARITHMETIC = /\(\(([\s\S]*?)\)\)|\[((?:[^[\]]|\[[^\]]*\])*)\]/g;

/** The names an arithmetic text assigns (`PATH=1, i++`: `PATH`, `i`). */
export function arithmeticNames(text: string): string[] {
  return [...text.matchAll(ARITHMETIC_ASSIGNMENT)].map((m) => (m[1] ?? m[2])!);
}

/** What an arithmetic text assigns, as assignments without a value: `PATH=1` gives `PATH=`, `$v = 1` gives `$v=` (a name known at run time). */
export function arithmeticSettings(text: string): string[] {
  return [...arithmeticNames(text), ...runTimeArithmeticNames(text)].map((name) => `${name}=`);
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
  const arithmetic = words.flatMap((word) => [...word.matchAll(ARITHMETIC)].map((m) => m[1] ?? m[2] ?? ''));
  names.push(...arithmetic.flatMap(arithmeticNames));
  // Indirect names (`${!v:=x}`) are known at run time; so are those `runTimeNames` finds (`read "$v"`, `read TMP{DIR,X}`).
  const built = words.flatMap((word) => [...word.matchAll(INDIRECT_ASSIGNMENT)].map((m) => `$${m[1]!}`));
  switch (base) {
    case 'let':
      names.push(...args.flatMap(arithmeticNames));
      break;
    case 'wait':
      // `wait -p NAME` sets NAME to the id of the job that ended.
      args.forEach((arg, i) => {
        // `-np PATH`: p last in a bundle takes the next word.
        const value = /^-[fn]*p$/.test(arg) ? args[i + 1] : /^-[fn]*p./.test(arg) ? arg.slice(arg.indexOf('p') + 1) : undefined;
        if (value !== undefined && NAME.test(value)) names.push(value);
      });
      break;
    case 'read':
    case 'mapfile':
    case 'readarray':
      // Every word that may be a name: in doubt an option's value (`read -p PATH`) counts too, and `read -raPATH` names PATH.
      names.push(...[...args, ...readNames(base, args)].filter((arg) => NAME.test(arg)));
      break;
    case 'getopts':
      names.push(...args.slice(1, 2).filter((arg) => NAME.test(arg)));
      break;
    case 'printf':
      args.forEach((arg, i) => {
        const value = arg === '-v' ? args[i + 1] : /^-v./.test(arg) ? arg.slice(2) : undefined;
        // `printf -v 'PATH[0]'` sets PATH: element 0 of a plain variable is the variable.
        const name = value?.replace(/\[[^\]]*\]$/, '');
        if (name !== undefined && NAME.test(name)) names.push(name);
      });
      break;
    case 'coproc':
      // `coproc NAME { cmd; }` sets the array NAME to its pipe's descriptors (`coproc PATH { :; }` makes PATH `63`).
      // In doubt a simple command's name counts too (`coproc cat` names no variable: nothing lost).
      if (NAME.test(args[0] ?? '')) names.push(args[0]!);
      break;
    case 'for':
    case 'select':
      if (NAME.test(args[0] ?? '')) names.push(args[0]!);
      break;
  }
  // A subscript assigning a name held in a variable (`a[$v=1]=2`) sets a name known at run time.
  const runTime = [...runTimeNames(base, args), ...arithmetic.flatMap(runTimeArithmeticNames), ...built];
  // The value is one the line does not show: written as a substitution's, so `read LESS` counts as `LESS=$(…)`.
  return [...names.map((name) => `${name}=${PLACEHOLDER}`), ...runTime.map((word) => `${word}=`)];
}
