/**
 * Commands whose effect is written somewhere a bash rule cannot read: a script file, code
 * given to an interpreter, a program file in the workspace, an environment variable that
 * makes programs run other code. A line holding one is opaque: while a bash deny rule is in
 * force it is denied, since what it runs cannot be checked.
 *
 * @module
 */
import { posix } from 'node:path';
import { gitRunsCommand } from './git-runs.js';
import { keywordOption } from './keyword-option.js';
import { optionRun } from './option-runs.js';
import { OPTION_VARIABLE } from './option-variables.js';
import { programKind } from '../program-names.js';
import { runTimeName, runTimeOption } from '../run-time-names.js';
import { quoted } from '../../quoted.js';

/** Interpreters of languages that can run any command (`os.system`, `system`, `child_process`...). */
const INTERPRETER = new RegExp(
  '^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|bunx|tsx|ts-node|perl[0-9.]*|ruby[0-9.]*|irb|php[0-9.]*|lua[0-9.]*|luajit|' +
    'tclsh[0-9.]*|wish|expect|rscript|r|julia|osascript|pwsh|powershell|groovy|jshell|java|scala|elixir|iex|erl|escript|guile|' +
    'racket|sbcl|clisp|ocaml|runghc|runhaskell|swift|gdb|lldb|vim|nvim|vi|ex|emacs)$',
  'i',
);
/** What an interpreter may be asked without running any code. */
const INFO_ONLY = new Set(['--version', '-V', '-v', '-version', '--help', '-h']);
/** Folders of the system's own programs: a program run from anywhere else may be a file the model wrote. */
const SYSTEM_BIN = /^\/(?:usr\/(?:local\/)?)?s?bin\/[^/]+$/;
/**
 * Environment variables that make a shell or another program run code from elsewhere: a
 * file (`BASH_ENV`, `LD_PRELOAD`), a command (`GIT_SSH_COMMAND`, `PAGER`), or a lookup of
 * programs and configuration (`PATH`, `HOME`, `GIT_DIR`, `CDPATH`: `cd hooks` may enter
 * `.git/hooks`). `GLOBIGNORE` makes globs match names starting with `.`, which globs are judged without.
 * `BASH_CMDS` and `BASH_ALIASES` are bash's hash and alias tables (`BASH_CMDS[ls]=/bin/rm` is
 * `hash -p`); `SHELL` is what `flock -c` and `script -c` run; vim's start-up commands
 * (`VIMINIT`...) run in the editor git starts; `ZIPOPT` and `ZIP` carry zip's options (`-TT cmd`).
 */
const CODE_VARIABLE = new RegExp(
  '^(?:BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|BASH_LOADABLES_PATH|PATH|HOME|ZDOTDIR|XDG_CONFIG_HOME|LD_[A-Z_]+|DYLD_[A-Z_]+|' +
    'NODE_OPTIONS|NODE_PATH|PERL5OPT|PERL5LIB|PERLLIB|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|RUBYOPT|RUBYLIB|' +
    'GIT_(?:SSH|SSH_COMMAND|EXTERNAL_DIFF|PAGER|EDITOR|SEQUENCE_EDITOR|ASKPASS|EXEC_PATH|DIR|COMMON_DIR|WORK_TREE|TEMPLATE_DIR|PROXY_COMMAND|ALLOW_PROTOCOL|DIFFTOOL_EXTCMD|CONFIG[A-Z_0-9]*)|' +
    'PAGER|MANPAGER|CDPATH|GLOBIGNORE|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|LESSKEY[A-Z_]*|MAKEFILES|SSH_ASKPASS|SUDO_ASKPASS|BROWSER|TAR_OPTIONS|' +
    'BASH_CMDS|BASH_ALIASES|SHELL|G?VIMINIT|EXINIT|MYG?VIMRC|VIM|VIMRUNTIME|ZIPOPT|ZIP|' +
    'npm_config_[A-Za-z_]+|NPM_CONFIG_[A-Z_]+)$',
);
/** What a reference's target is assigned (`declare -n r=LESS; r='+!rm f'`): a value set later, which the line may build. */
const REFERENCED = '$(…)';
/** Builtins whose arguments set or export variables. */
const SETTERS = new Set(['export', 'declare', 'typeset', 'local', 'readonly', 'env']);

/**
 * Why running `name` (as written: `./s.sh`, `python3`) with `args` runs code the line does
 * not show, or `undefined` when it does not.
 *
 * @param dynamic - which of `args` are only known when it runs (`$X`, a glob...), as far as it matters (git).
 *
 * @example
 * ```ts
 * unreadableRun('bash', ['s.sh']); // 'a shell running a script file ("bash s.sh")'
 * unreadableRun('python3', ['-c', 'import os']); // 'an interpreter running code the rules cannot read ("python3")'
 * unreadableRun('ls', ['-la']); // undefined
 * ```
 */
export function unreadableRun(name: string, args: readonly string[], dynamic: readonly boolean[] = []): string | undefined {
  // Checked by the name the checks know (`gmake` is make, `mawk` awk); messages quote it as written.
  const typed = name.slice(name.lastIndexOf('/') + 1);
  const base = programKind(typed);
  if (runsFromFile(name)) return `a program run from a file (${quoted(name)})`;
  if (base === '.' || base === 'source') return `${quoted(base)} running a script file`;
  // `enable -f lib.so name` loads a builtin from a shared library: code the line does not show.
  if (base === 'enable' && args.some((arg) => /^-[A-Za-z]*f/.test(arg))) return '"enable -f", which loads a builtin from a file';
  // With dotglob a glob matches names starting with `.` (`cp -r dist/* .` copies dist/.git): globs are judged without it.
  if (base === 'shopt' && args.includes('dotglob') && !args.includes('-u')) return '"shopt dotglob", which makes globs match the files other programs run';
  const keyword = keywordOption(base, args, dynamic);
  if (keyword !== undefined) return keyword;
  if (base === 'awk' && awkRunsCommands(args)) return `an awk program that can run commands (${quoted(typed)})`;
  if (base === 'git') {
    const git = gitRunsCommand(args, dynamic);
    if (git !== undefined) return git;
  }
  const option = optionRun(base, args, dynamic, typed);
  if (option !== undefined) return option;
  if (INTERPRETER.test(base) && !args.every((arg) => INFO_ONLY.has(arg))) {
    return `an interpreter running code the bash rules cannot read (${quoted(typed)})`;
  }
  return undefined;
}

/**
 * Whether running `name` (as written) runs a program from a file: a name with a folder outside
 * the system's own (`./s.sh`, `/tmp/x`, not `/usr/bin/rm`). `/dev/null` and `/dev/zero` run
 * nothing (a wrapper's option value tried as its command: `xargs -a /dev/null`).
 */
export function runsFromFile(name: string): boolean {
  return name.includes('/') && !SYSTEM_BIN.test(posix.normalize(name)) && !/^\/dev\/(?:null|zero)$/.test(name);
}

/** Why a shell without `-c` cannot be checked: it runs a script file, or its input. */
export function shellWithoutCommand(base: string, readsInput: boolean): string {
  return readsInput ? `a shell reading its commands from its input (${quoted(base)})` : `a shell running a script file (${quoted(base)})`;
}

/**
 * Why a statement's assignments (`BASH_ENV=x bash -c true`, `export LD_PRELOAD=...`) make
 * programs run code from elsewhere, or `undefined`.
 *
 * @param assignments - the words in front of the command that assign variables.
 * @param command - the command's name and arguments (checked when it is `export`, `env`...).
 */
export function codeVariable(assignments: readonly string[], command: readonly string[]): string | undefined {
  const setters = SETTERS.has(command[0] ?? '') ? command.slice(1) : [];
  const declared = command[0] === 'env' ? [] : setters.filter((word) => !word.startsWith('-'));
  // `declare -p "$v"` and `-f` show or name functions: no variable is set.
  const showing = setters.some((word) => /^-[A-Za-z]*[pfF]/.test(word));
  // A name only known when the line runs (`declare "$v"=x`, `export "$v"`, `read "$v"`: see `set-names`) may be PATH.
  // So may its options (`declare "-$o" r=PATH`, which `o=n` makes a reference to PATH).
  const runTimeOptions = command[0] === 'env' ? [] : setters.filter(runTimeOption);
  // So may a name with a brace expansion or a glob, expanded first (`export {PATH,X}=bin`, `export PAT?=bin` with a file `PATH=bin`, `read PAT{H,X}`).
  const unknown = [...assignments, ...(showing ? [] : declared), ...runTimeOptions].find(runTimeName);
  if (unknown !== undefined) return `a variable whose name is only known when the line runs (${quoted(unknown.replace(/\+?=.*$/s, ''))}), which may be PATH or any other`;
  // `declare -n r=PATH`: r is a reference, and assigning r sets PATH.
  const targets = referenceTargets(command);
  const unset = targets.includes('') ? declared.find((word) => !word.includes('=')) : undefined;
  if (unset !== undefined) return `a reference whose target is set later (${quoted(`${command[0]} -n ${unset}`)}), which may be PATH or any other`;
  const references = targets.filter((name) => name !== '');
  const referenced = references.find((name) => name.includes('$'));
  if (referenced !== undefined) return `a reference to a variable whose name is only known when the line runs (${quoted(referenced)}), which may be PATH or any other`;
  // `declare -l LESS; LESS="$LESS -KBIND"`: a case change turns the inherited value's options into others (`-K` into a lesskey `-k`).
  const cased = command[0] !== 'env' && setters.some((word) => /^-[A-Za-z]*[luc]/.test(word));
  const recased = cased ? declared.map((word) => /^[A-Za-z_]\w*/.exec(word)?.[0] ?? '').find((name) => name in OPTION_VARIABLE) : undefined;
  if (recased !== undefined) return `a change of ${recased} by a case change (${quoted(`${command[0]} -l/-u/-c`)}), which may make programs run code from elsewhere`;
  for (const word of [...assignments, ...setters, ...references.map((name) => `${name}=${REFERENCED}`)]) {
    const variable = /^[A-Za-z_][A-Za-z0-9_]*/.exec(word)?.[0];
    const options = variable === undefined ? undefined : OPTION_VARIABLE[variable];
    if (variable !== undefined && (CODE_VARIABLE.test(variable) || options?.(word.slice(variable.length)) === true)) {
      return `a change of ${variable}, which makes programs run code from elsewhere`;
    }
  }
  return undefined;
}

/**
 * The variables a name reference of `command` (its name and arguments) refers to: assigning
 * `r` after `declare -n r=PATH` (`typeset -n`, `local -n`) sets PATH, so the target is set as
 * an assignment would set it. A reference without a target gives `''` (`declare -n r; r=PATH`:
 * set later, by a line that may build it); one only known when the line runs stays as written
 * (`declare -n r=$v`). An option only known when the line runs (`declare "-$o" r=TMPDIR`) may
 * be `-n`, so it is read as one. `export -n` un-exports, and `-p` / `-f` only show.
 *
 * @example
 * ```ts
 * referenceTargets(['declare', '-n', 'r=PATH']); // ['PATH']
 * referenceTargets(['local', '-n', 'r']); // ['']
 * referenceTargets(['declare', 'r=PATH']); // []
 * ```
 */
export function referenceTargets(command: readonly string[]): string[] {
  const base = command[0] ?? '';
  if (!SETTERS.has(base) || base === 'export' || base === 'env') return [];
  const args = command.slice(1);
  // An option only known when the line runs may be `-n` (`declare "-$o" r=TMPDIR` with `o=n`).
  if (!args.some((word) => /^-[A-Za-z]*n/.test(word) || runTimeOption(word))) return [];
  const showing = args.some((word) => /^-[A-Za-z]*[pfF]/.test(word));
  return args.filter((word) => !word.startsWith('-')).flatMap((word) => (word.includes('=') ? (/^[A-Za-z_]\w*=(.+)$/s.exec(word)?.[1] ?? []) : showing ? [] : ['']));
}

/** awk runs commands through `system()`, pipes (`print | "sh"`, `"cmd" | getline`) and program files. */
function awkRunsCommands(args: readonly string[]): boolean {
  return args.some((arg) => arg === '-f' || arg.startsWith('--file') || /system|\|/.test(arg));
}
