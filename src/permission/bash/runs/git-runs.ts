/**
 * git invocations that run a command the line does not show: options of git itself that set
 * configuration (`-c core.pager=...`, `--config-env`), options of its commands that take a
 * command (`rebase --exec`, `fetch --upload-pack`), commands that run one (`bisect run`,
 * `submodule foreach`), and settings stored for later (`git config alias.x '!...'`).
 *
 * @module
 */
import { quoted } from '../../quoted.js';

/** The options of one git command that take a command (or configuration) to run. */
interface CommandOptions {
  /** Long names; git also takes any abbreviation (`--ex` for `--exec`). */
  readonly long: readonly string[];
  /** Letters that take a command; in a cluster too (`-ix cmd`). */
  readonly short?: string;
  /** Letters whose value is the rest of the word (`-Xours`): the cluster ends there. */
  readonly valued?: string;
  /** Of those, the ones whose value is the next word when nothing follows them (`-e -O`: the pattern `-O`). */
  readonly next?: string;
}

/** Options of git's commands whose value is a command git runs, by command. */
const COMMAND_OPTIONS: Readonly<Record<string, CommandOptions>> = {
  rebase: { long: ['exec'], short: 'x', valued: 'sXSC', next: 'sXC' },
  difftool: { long: ['extcmd'], short: 'x', valued: 'tUMBCSGOl', next: 't' },
  grep: { long: ['open-files-in-pager'], short: 'O', valued: 'efABCm', next: 'efABCm' },
  fetch: { long: ['upload-pack'] },
  pull: { long: ['upload-pack'] },
  'ls-remote': { long: ['upload-pack', 'exec'] },
  'fetch-pack': { long: ['upload-pack', 'exec'] },
  clone: { long: ['upload-pack', 'template', 'config'], short: 'uc', valued: 'obj', next: 'obj' },
  init: { long: ['template'] },
  push: { long: ['receive-pack', 'exec'] },
  'send-pack': { long: ['receive-pack', 'exec'] },
  archive: { long: ['exec'] },
  instaweb: { long: ['httpd'], short: 'd' },
  daemon: { long: ['access-hook'] },
};

/**
 * Commands with an option that writes a file it names (`log --output=f`, `format-patch -o d`,
 * `archive -o f`): a word only known when it runs may be that option, and the file one git runs.
 */
const OUTPUT_COMMANDS = new Set([
  'log', 'diff', 'show', 'format-patch', 'archive', 'diff-tree', 'diff-index', 'diff-files', 'whatchanged', 'range-diff',
]);
/** Commands with options that run a command or set what git runs, besides those of {@link COMMAND_OPTIONS}. */
const RUNNING_COMMANDS = new Set(['config', 'filter-branch', 'send-email', 'bisect', 'submodule', 'hook']);

/** Commands whose first operand makes them run a command: `git bisect run cmd`, `git submodule foreach cmd`, `git hook run name`. */
const RUNNING_OPERANDS: Readonly<Record<string, string>> = { bisect: 'run', submodule: 'foreach', hook: 'run' };

/**
 * Keys `git config` may set without making git run anything later. Any other key may name a
 * command (`alias.*`, `core.pager`, `core.fsmonitor`, `filter.*.clean`, `credential.helper`,
 * `include.path`...), and git grows new ones: in doubt a key counts as one that runs.
 */
const SAFE_KEY = new RegExp(
  '^(?:(?:user|author|committer|color|advice|i18n)\\..+|init\\.defaultbranch|' +
    'core\\.(?:autocrlf|filemode|ignorecase|quotepath|eol|safecrlf|symlinks|longpaths|precomposeunicode|whitespace|abbrev|compression|logallrefupdates|commentchar|untrackedcache|preloadindex|checkstat|trustctime)|' +
    'pull\\.(?:rebase|ff)|push\\.(?:default|autosetupremote|followtags)|fetch\\.(?:prune|prunetags|parallel)|merge\\.(?:ff|conflictstyle|log|autostash|stat)|' +
    'rebase\\.(?:autostash|autosquash|updaterefs|stat)|diff\\.(?:renames|algorithm|colormoved|context|mnemonicprefix|noprefix|renamelimit|indentheuristic)|' +
    'log\\.(?:date|decorate|follow|abbrevcommit|showroot)|status\\.(?:short|branch|showuntrackedfiles|relativepaths|showstash|aheadbehind)|' +
    'commit\\.(?:verbose|status|cleanup)|tag\\.sort|branch\\.(?:sort|autosetupmerge|autosetuprebase)|branch\\..+\\.(?:remote|merge|rebase|pushremote|description)|' +
    'remote\\..+\\.(?:url|pushurl|fetch|push|tagopt|prune|mirror)|grep\\.(?:linenumber|patterntype|extendedregexp))$',
);
/** `git config` options that take a value in the next word. */
const CONFIG_VALUED = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value']);
/** `git config` actions that only read or remove settings. */
const CONFIG_READS = /^--(?:get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list|unset|unset-all|remove-section|edit)$|^-[le]$/;

/**
 * Why `git` with `args` can run a command the line does not show, or `undefined`. `dynamic`
 * marks the words only known when git runs (`$X`, `$(…)`, a glob, a brace expansion): one at
 * or before the command's name may be any option or command (`git $C alias.x=... x` with
 * `C=-c`, `git r?base -x ...`), and one after a command with options that run a command or
 * write a file may be such an option (`git fetch $O`, `git log $R` with `R=--output=...`).
 *
 * @example
 * ```ts
 * gitRunsCommand(['-c', 'core.pager=rm -rf x', 'log']); // 'git configuration set on the command line, ...'
 * gitRunsCommand(['rebase', '-x', 'make test']); // 'a git option that runs a command ("git rebase -x")'
 * gitRunsCommand(['log', '-p']); // undefined
 * ```
 */
export function gitRunsCommand(args: readonly string[], dynamic: readonly boolean[] = []): string | undefined {
  const unknown = dynamicWord(args, dynamic);
  if (unknown !== undefined) return unknown;
  const remote = args.find((arg) => /^ext::/i.test(arg));
  if (remote !== undefined) return `a git remote that runs a command (${quoted(remote)})`;
  let at = 0;
  for (; at < args.length && args[at]!.startsWith('-'); at += 1) {
    const option = args[at]!;
    if (option.startsWith('-c') || option.startsWith('--config-env')) {
      const shown = option === '-c' || option === '--config-env' ? `${option} ${args[at + 1] ?? ''}` : option;
      return `git configuration set on the command line, which can make git run a command (${quoted(`git ${shown.trim()}`)})`;
    }
    if (option.startsWith('--exec-path=') || option.startsWith('--git-dir')) {
      return `a git option that runs programs or reads configuration from elsewhere (${quoted(`git ${option}`)})`;
    }
    // Global options that take the next word: skip it, so that `git -C log status` finds `status`.
    if (['-C', '--work-tree', '--namespace', '--super-prefix', '--attr-source'].includes(option)) at += 1;
  }
  const command = args[at];
  if (command === undefined) return undefined;
  const rest = args.slice(at + 1);
  if (command === 'config') return configRuns(rest);
  // Internal helpers (`submodule--helper foreach`, `difftool--helper`) take commands from their callers.
  if (command.endsWith('--helper')) return `an internal git helper, which may run a command (${quoted(`git ${command}`)})`;
  if (command === 'send-email') return 'git send-email, which runs commands from its options (--to-cmd, --sendmail-cmd...)';
  if (command === 'filter-branch' && rest.some((arg) => /^--(?:setup|(?:env|tree|index|parent|msg|commit|tag-name)-filter)/.test(arg))) {
    return 'a git option that runs a command ("git filter-branch" with a filter)';
  }
  // Own keys only: `git constructor` names no entry.
  const operand = Object.hasOwn(RUNNING_OPERANDS, command) ? RUNNING_OPERANDS[command] : undefined;
  if (operand !== undefined && rest.find((arg) => !arg.startsWith('-')) === operand) {
    return `a git command that runs a command the line does not show (${quoted(`git ${command} ${operand}`)})`;
  }
  const options = Object.hasOwn(COMMAND_OPTIONS, command) ? COMMAND_OPTIONS[command] : undefined;
  const found = options === undefined ? undefined : commandOption(rest, options);
  return found === undefined ? undefined : `a git option that runs a command (${quoted(`git ${command} ${found}`)})`;
}

/** Why a word only known when git runs may make it run a command: see {@link gitRunsCommand}. */
function dynamicWord(args: readonly string[], dynamic: readonly boolean[]): string | undefined {
  const at = dynamic.indexOf(true);
  if (at < 0) return undefined;
  const command = commandAt(args);
  const why = `a git call with a word only known when it runs (${quoted(args[at]!)}), which may be an option that runs a command or writes a file git runs`;
  if (command === undefined || at <= command) return why;
  const name = args[command]!;
  const risky = Object.hasOwn(COMMAND_OPTIONS, name) || RUNNING_COMMANDS.has(name) || OUTPUT_COMMANDS.has(name) || name.endsWith('--helper');
  return risky ? why : undefined;
}

/** Where git's command name is in `args` (past git's own options), or `undefined` when there is none. */
function commandAt(args: readonly string[]): number | undefined {
  let at = 0;
  for (; at < args.length && args[at]!.startsWith('-'); at += 1) {
    if (['-C', '-c', '--config-env', '--work-tree', '--namespace', '--super-prefix', '--attr-source', '--git-dir'].includes(args[at]!)) at += 1;
  }
  return at < args.length ? at : undefined;
}

/** The first word of `args` that is an option of `options` taking a command: `--exec=x`, `--ex x` (abbreviated), `-ix`. */
function commandOption(args: readonly string[], options: CommandOptions): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg.startsWith('--')) {
      const name = arg.slice(2).split('=')[0]!;
      if (name.length > 0 && options.long.some((long) => long.startsWith(name))) return arg;
      continue;
    }
    if (!arg.startsWith('-')) continue;
    for (const [at, letter] of [...arg.slice(1)].entries()) {
      if (options.short?.includes(letter)) return arg;
      if (!options.valued?.includes(letter)) continue;
      // The rest of the word is this option's value, or, when nothing follows, the next word is.
      if (at === arg.length - 2 && options.next?.includes(letter)) i += 1;
      break;
    }
  }
  return undefined;
}

/** Why a `git config` call sets a key that can run a command later, or `undefined` when it only reads or sets a safe key. */
function configRuns(args: readonly string[]): string | undefined {
  const operands: string[] = [];
  let sets = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (CONFIG_VALUED.has(arg)) i += 1;
    else if (arg === '--rename-section') return 'a git setting renamed into one that may run a command ("git config --rename-section")';
    else if (CONFIG_READS.test(arg)) return undefined;
    else if (arg === '--add' || arg.startsWith('--replace-all')) sets = true;
    else if (!arg.startsWith('-')) operands.push(arg);
  }
  let [first, key] = operands;
  // git 2.46 spells the action as a word: `git config set k v`, `git config get k`.
  if (first === 'rename-section') return 'a git setting renamed into one that may run a command ("git config rename-section")';
  if (first === 'set') sets = true;
  else if (['get', 'list', 'unset', 'remove-section', 'edit'].includes(first ?? '')) return undefined;
  else {
    key = first;
    sets ||= operands.length >= 2;
  }
  if (!sets || key === undefined || SAFE_KEY.test(key.toLowerCase())) return undefined;
  return `a git setting that can run a command later (${quoted(`git config ${key}`)})`;
}
