/**
 * Ordinary programs with options whose value is a command they run (the GTFOBins class):
 * `tar --checkpoint-action=exec=...` / `-I cmd` / `--to-command`, `zip -TT cmd`, `rsync -e cmd`,
 * `sort --compress-program`, `ssh -o ProxyCommand=...`, `scp -S`, `man -P`, `split --filter`,
 * `npm --script-shell`... A bash rule names the program, not what such an option runs, so a
 * line holding one is unreadable.
 *
 * @module
 */

import { packageCommandStarts } from './package-runs.js';

/** The options of one program that take a command, or a file that holds commands. */
interface RunningOptions {
  /** Long names (`--name v`, `--name=v`), and any abbreviation of them, as getopt takes one. */
  readonly long?: readonly string[];
  /** Ordinary long options spelt in full that are also abbreviations of one of {@link long} (`--checkpoint`). */
  readonly exact?: readonly string[];
  /** Letters that take a command, also in a cluster (`-cIf`). */
  readonly short?: string;
  /** Letters taking a value (the rest of the word, else the next word): a cluster ends there. */
  readonly valued?: string;
  /** Options spelt with one dash and more than one letter (`zip -TT`), found anywhere in a cluster. */
  readonly words?: readonly string[];
  /** Whether the option (as spelt on the line) with this value runs nothing the line does not show. */
  readonly harmless?: (option: string, value: string | undefined) => boolean;
  /** tar's old form: a first word without a dash is a cluster of letters (`tar cIf cmd a.tar`). */
  readonly oldForm?: boolean;
}

/** `--checkpoint-action` actions that run nothing: print, ring, sleep, wait for a signal. */
const QUIET_CHECKPOINT = /^(?:\.|dot|bell|echo|totals|ttyout=.*|echo=.*|sleep=\d+|wait=[A-Z0-9]+)$/s;
/** ssh settings that run a local command, load code, or read a configuration that may hold either. */
const RUNNING_SSH_KEY = /^\s*(?:proxycommand|localcommand|knownhostscommand|pkcs11provider|securitykeyprovider|include|match)\b/i;
/** Compressors tar or sort may be told to use, with a level or thread count only. */
const COMPRESSOR = /^(?:gzip|bzip2|xz|zstd|lz4|lzip|lzma|lzop|pigz|pbzip2|pixz|plzip|brotli)(?:\s+-(?:\d+|T\d+|[qv]))*$/;
/** A remote shell for rsync that is plain ssh with options that run nothing locally. */
const PLAIN_SSH = /^(?:\/usr\/bin\/)?ssh(?:\s+(?:-[46AaCgKkNnqsTtvXxY]+|-[pil]\s*[^\s-]\S*))*\s*$/;

const SSH: RunningOptions = {
  short: 'oFSD',
  valued: 'BbcDEeFIiJLlmOoPpQRSWw',
  // ssh's -S is its control socket and -D a SOCKS port; scp's and sftp's are programs they run.
  harmless: (option, value) =>
    option.endsWith('o')
      ? value !== undefined && !RUNNING_SSH_KEY.test(value)
      : option.endsWith('F')
        ? value === '/dev/null' || value === 'none'
        : false,
};
const TAR: RunningOptions = {
  long: ['checkpoint-action', 'use-compress-program', 'to-command', 'info-script', 'new-volume-script', 'rsh-command', 'rmt-command'],
  exact: ['checkpoint'],
  short: 'IF',
  valued: 'bCfFgHIKLNTVX',
  oldForm: true,
  harmless: (option, value) =>
    value !== undefined &&
    (option.startsWith('--ch') ? QUIET_CHECKPOINT.test(value) : (option === '-I' || option.startsWith('--us')) && COMPRESSOR.test(value)),
};
const SORT: RunningOptions = { long: ['compress-program'], harmless: (_option, value) => value !== undefined && COMPRESSOR.test(value) };
const NPM: RunningOptions = {
  long: ['call', 'script-shell', 'shell', 'node-options', 'userconfig', 'globalconfig', 'git', 'editor', 'browser', 'viewer'],
  short: 'c',
};

/** The programs, by name, and their options that run a command. */
const PROGRAMS: Readonly<Record<string, RunningOptions>> = {
  tar: TAR,
  gtar: TAR,
  bsdtar: TAR,
  zip: { long: ['unzip-command'], words: ['-TT'] },
  rsync: {
    long: ['rsh'],
    short: 'e',
    valued: 'efBTM@',
    harmless: (_option, value) => value !== undefined && PLAIN_SSH.test(value),
  },
  sort: SORT,
  gsort: SORT,
  ssh: { ...SSH, short: 'oF' },
  slogin: { ...SSH, short: 'oF' },
  autossh: { ...SSH, short: 'oF' },
  scp: { ...SSH, valued: 'cDFiJloPSX' },
  sftp: { ...SSH, short: 'oFSDb', valued: 'BbcDFiJloPRSsX' },
  man: {
    long: ['pager', 'html', 'config-file'],
    short: 'PHC',
    valued: 'CRLmMSsepPrE',
    harmless: (option, value) => (option === '-P' || option === '--pager') && value !== undefined && /^(?:cat|less|more|less -R)$/.test(value),
  },
  split: { long: ['filter'] },
  gsplit: { long: ['filter'] },
  npm: NPM,
  pnpm: NPM,
  npx: NPM,
  pnpx: NPM,
};

/**
 * Why `base` with `args` runs a command given in one of its options, or `undefined`. The
 * reason names the program and the option as written.
 *
 * @example
 * ```ts
 * optionRun('tar', ['-cf', 'a.tar', '-I', 'rm x', 'dir']); // 'an option of tar that runs a command ("tar -I rm x")'
 * optionRun('tar', ['-czf', 'a.tgz', 'dir']); // undefined
 * ```
 *
 * @param dynamic - which of `args` are only known when it runs: one that may expand to an
 *   option (`$O`, `"$O"`, a leading glob `*` matching a file named `--checkpoint-action=...`)
 *   counts as such an option, also after one that takes a value (`-cf $OUT` splits when unquoted).
 */
export function optionRun(base: string, args: readonly string[], dynamic: readonly boolean[] = []): string | undefined {
  const spec = PROGRAMS[base];
  if (spec === undefined) return undefined;
  // Options end at `--`; those of the command `npx` or `npm exec` runs are its own (`npx eslint -c cfg`).
  const dashes = args.indexOf('--');
  const end = Math.min(packageCommandStarts(base, args)[0] ?? args.length, dashes < 0 ? args.length : dashes);
  const unknown = args.slice(0, end).findIndex((arg, i) => dynamic[i] === true && mayBeOption(arg));
  if (unknown >= 0) return `a word only known when it runs ("${args[unknown]}"), which may be an option of ${base} that runs a command`;
  for (let i = 0; i < end; i += 1) {
    const arg = args[i]!;
    const found = runningOption(spec, arg, args[i + 1], i === 0);
    if (found === undefined) continue;
    const [option, value, next] = found;
    if (spec.harmless?.(option, value) === true) continue;
    const shown = next && value !== undefined ? `${arg} ${value}` : arg;
    return `an option of ${base} that runs a command ("${base} ${shown}")`;
  }
  return undefined;
}

/** The running option `arg` holds, with its value and whether that is the next word; else `undefined`. */
function runningOption(
  spec: RunningOptions,
  arg: string,
  following: string | undefined,
  first: boolean,
): [string, string | undefined, boolean] | undefined {
  const named = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
  if (named !== null) {
    const name = named[1]!;
    if (spec.exact?.includes(name) === true || !(spec.long ?? []).some((long) => long.startsWith(name))) return undefined;
    return named[2] !== undefined ? [`--${name}`, named[2], false] : [`--${name}`, following, true];
  }
  const word = spec.words?.find((w) => arg.startsWith('-') && arg.slice(1).includes(w.slice(1)));
  if (word !== undefined) {
    const rest = arg.slice(arg.indexOf(word.slice(1)) + word.length - 1).replace(/^=/, '');
    return rest !== '' ? [word, rest, false] : [word, following, true];
  }
  const letters = arg.startsWith('-') && arg.length > 1 ? arg.slice(1) : first && spec.oldForm === true ? arg : undefined;
  if (letters === undefined || spec.short === undefined) return undefined;
  // In tar's old form every letter takes its value from the next words in turn: any letter counts.
  const oldForm = !arg.startsWith('-');
  for (let at = 0; at < letters.length; at += 1) {
    const letter = letters[at]!;
    if (spec.short.includes(letter)) {
      const rest = letters.slice(at + 1);
      if (oldForm || rest === '') return [`-${letter}`, oldForm ? undefined : following, true];
      return [`-${letter}`, rest, false];
    }
    if (!oldForm && spec.valued?.includes(letter) === true) return undefined;
  }
  return undefined;
}

/** Whether a word known only at run time may become an option: a variable (split or not), or a glob or brace expansion at its start. */
function mayBeOption(arg: string): boolean {
  return arg.includes('$') || /^[*?[{]/.test(arg);
}
