/**
 * The ordinary programs whose options run a command (the GTFOBins class), for `optionRun`:
 * `tar --checkpoint-action=exec=...` / `-I cmd` / `--to-command`, `zip -TT cmd`, `rsync -e cmd`,
 * `sort --compress-program`, `ssh -o ProxyCommand=...`, `scp -S`, `man -P`, `split --filter`,
 * `npm --script-shell`, `make --eval`, `less '+!cmd'`...
 *
 * @module
 */

/** The options of one program that take a command, or a file that holds commands. */
export interface RunningOptions {
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
  /** A pager's initial command (`less '+!rm f'`): an argument starting with `+` runs one, unless it matches this. */
  readonly initial?: RegExp;
  /** Operands that set what runs a command (`make SHELL=./x`). */
  readonly operand?: RegExp;
  /** Words known only at run time that still cannot become an option (`make -j$(nproc)`: the job count). */
  readonly runTimeValue?: RegExp;
}

/** `--checkpoint-action` actions that run nothing: print, ring, sleep, wait for a signal. */
const QUIET_CHECKPOINT = /^(?:\.|dot|bell|echo|totals|ttyout=.*|echo=.*|sleep=\d+|wait=[A-Z0-9]+)$/s;
/** ssh settings that run a local command, load code, or read a configuration that may hold either. */
const RUNNING_SSH_KEY = /^\s*(?:proxycommand|localcommand|knownhostscommand|pkcs11provider|securitykeyprovider|include|match)\b/i;
/** Compressors tar or sort may be told to use, with a level or thread count only. */
const COMPRESSOR = /^(?:gzip|bzip2|xz|zstd|lz4|lzip|lzma|lzop|pigz|pbzip2|pixz|plzip|brotli)(?:\s+-(?:\d+|T\d+|[qv]))*$/;
/** A remote shell for rsync that is plain ssh with options that run nothing locally. */
const PLAIN_SSH = /^(?:\/usr\/bin\/)?ssh(?:\s+(?:-[46AaCgKkNnqsTtvXxY]+|-[pil]\s*[^\s-]\S*))*\s*$/;
/**
 * less's initial commands that only move or search: a line, a percentage, the end, follow,
 * a search. A control character may end the search and start another command (`!`, `|`, `s`).
 */
const MOVING_COMMAND = /^\+\+?(?:\d*[gGpP%]?|F|[/?][^\x00-\x1f\x7f]*)$/;

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
/**
 * Whether a makefile path names an open file descriptor, whose text the line's input gives
 * (`-f /dev/fd/0 <<< 'x:;rm v'`): `/dev/stdin`, `/dev/fd/N`, `/proc/<pid>/fd/N` in any spelling
 * (`//`, `/./`). As `-C /dev/fd` or `-C /proc/self` may come first, any path ending in `stdin`,
 * `fd/N` or a bare `N` counts too; a makefile named by a number alone is rare.
 */
function namesDescriptor(path: string): boolean {
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  const last = parts[parts.length - 1] ?? '';
  const parent = parts[parts.length - 2];
  return last === 'stdin' || (/^\d+$/.test(last) && (parent === undefined || parent === 'fd' || parent === '..'));
}

/**
 * make's `--eval` / `-E` adds makefile text (recipes are commands), `-f -` (or a file
 * descriptor's name, `-f /dev/fd/0`) reads a makefile from the input, `SHELL=` and
 * `.SHELLFLAGS=` choose what runs every recipe, `MAKEFLAGS=` adds options. A makefile from a
 * file is no more read than the `Makefile` itself.
 */
const MAKE: RunningOptions = {
  long: ['eval', 'file', 'makefile'],
  short: 'Ef',
  valued: 'CfIoWEjl',
  harmless: (option, value) => !/^-(?:E|-e)/.test(option) && value !== undefined && value !== '-' && !namesDescriptor(value),
  operand: /^(?:SHELL|\.SHELLFLAGS|MAKESHELL|MAKEFLAGS|MFLAGS|GNUMAKEFLAGS|MAKEFILES)\s*[:+?!]?=/,
  runTimeValue: /^(?:-j|--jobs=)\$\(…\)$/,
};
/**
 * less (and more, often less under another name) runs an initial command given as `+cmd`,
 * where `!cmd` runs a shell and `|` pipes to one; a lesskey file may set `LESSOPEN`.
 */
const LESS: RunningOptions = {
  long: ['lesskey-file', 'lesskey-src', 'lesskey-content'],
  short: 'k',
  valued: 'bhjkoOpPtTxyz#D',
  initial: MOVING_COMMAND,
};

/** The programs, by name, and their options that run a command. */
export const RUNNING_OPTIONS: Readonly<Record<string, RunningOptions>> = {
  tar: TAR,
  bsdtar: TAR,
  zip: { long: ['unzip-command'], words: ['-TT'] },
  rsync: {
    long: ['rsh'],
    short: 'e',
    valued: 'efBTM@',
    harmless: (_option, value) => value !== undefined && PLAIN_SSH.test(value),
  },
  sort: SORT,
  // ssh's -I loads a PKCS#11 library, as `-o PKCS11Provider=` does: never harmless.
  ssh: { ...SSH, short: 'oFI' },
  slogin: { ...SSH, short: 'oFI' },
  autossh: { ...SSH, short: 'oFI' },
  scp: { ...SSH, valued: 'cDFiJloPSX' },
  sftp: { ...SSH, short: 'oFSDb', valued: 'BbcDFiJloPRSsX' },
  man: {
    long: ['pager', 'html', 'config-file'],
    short: 'PHC',
    valued: 'CRLmMSsepPrE',
    harmless: (option, value) => (option === '-P' || option === '--pager') && value !== undefined && /^(?:cat|less|more|less -R)$/.test(value),
  },
  split: { long: ['filter'] },
  npm: NPM,
  pnpm: NPM,
  npx: NPM,
  pnpx: NPM,
  make: MAKE,
  less: LESS,
  more: LESS,
};
