/**
 * The other names some programs the checks read specially are installed under: GNU's programs
 * as BSD systems and Homebrew name them (`gsed`, `gfind`, `gxargs`, `grm`, `gtar`, `gmake`...),
 * and awk's implementations (`gawk`, `mawk`, `nawk`). One map, read once where a command's
 * name is worked out (`commandBase`), so that no check reads a name another misses.
 *
 * @module
 */
import { foldCase } from '../fold-case.js';
import { basename } from './shell-words.js';

/**
 * GNU's programs Homebrew (and BSD ports) install with a `g` in front: every program of coreutils
 * (`gcat`, `gunlink`, `grmdir`, `gchgrp`, `g[`...), findutils, diffutils, patch, sed, grep, tar
 * and make. A list, not "any `g` name whose rest a check knows": many programs start with `g`
 * and are no GNU twin (`gunzip` is not `unzip`, `git`, `gcc`, `gpg`, `go`, `gdb`, `gzip`), and
 * a rule on `unzip *` must not catch them. Two names here are also other programs' (`gdu`, Go's
 * disk usage viewer; FreeBSD's `gstat`): reading them as `du` and `stat` only adds checks and
 * rules (neither program's plain name is trusted by any check), so the list keeps them.
 */
const GNU = [
  // coreutils
  '[', 'arch', 'b2sum', 'base32', 'base64', 'basename', 'basenc', 'cat', 'chcon', 'chgrp', 'chmod', 'chown', 'chroot',
  'cksum', 'comm', 'cp', 'csplit', 'cut', 'date', 'dd', 'df', 'dir', 'dircolors', 'dirname', 'du', 'echo', 'env',
  'expand', 'expr', 'factor', 'false', 'fmt', 'fold', 'groups', 'head', 'hostid', 'hostname', 'id', 'install', 'join',
  'kill', 'link', 'ln', 'logname', 'ls', 'md5sum', 'mkdir', 'mkfifo', 'mknod', 'mktemp', 'mv', 'nice', 'nl', 'nohup',
  'nproc', 'numfmt', 'od', 'paste', 'pathchk', 'pinky', 'pr', 'printenv', 'printf', 'ptx', 'pwd', 'readlink',
  'realpath', 'rm', 'rmdir', 'runcon', 'seq', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'shred',
  'shuf', 'sleep', 'sort', 'split', 'stat', 'stdbuf', 'stty', 'sum', 'sync', 'tac', 'tail', 'tee', 'test', 'timeout',
  'touch', 'tr', 'true', 'truncate', 'tsort', 'tty', 'uname', 'unexpand', 'uniq', 'unlink', 'uptime', 'users', 'vdir',
  'wc', 'who', 'whoami', 'yes',
  // findutils, diffutils, patch, sed, grep, tar, make
  'find', 'xargs', 'locate', 'updatedb', 'diff', 'diff3', 'sdiff', 'cmp', 'patch', 'sed', 'grep', 'egrep', 'fgrep',
  'tar', 'make',
];

const OTHER_NAMES: ReadonlyMap<string, string> = new Map([
  ...GNU.map((name): [string, string] => [`g${name}`, name]),
  ['gawk', 'awk'],
  ['mawk', 'awk'],
  ['nawk', 'awk'],
]);

/**
 * The name the checks know `base` (a program's name without its folder) by: `sed` for `gsed`,
 * `rm` for `grm`, `awk` for `mawk`; any other name as it is.
 *
 * @example
 * ```ts
 * programKind('gsed'); // 'sed'
 * programKind('mawk'); // 'awk'
 * programKind('rm'); // 'rm'
 * ```
 */
export function programKind(base: string): string {
  return OTHER_NAMES.get(base) ?? base;
}

/**
 * The name the checks know the program `name` (as written, maybe with a folder) by: without its
 * folder, folded as a disk that ignores case finds it (see `foldCase`), and as {@link programKind} gives it.
 *
 * @example
 * ```ts
 * commandBase('/opt/homebrew/bin/gxargs'); // 'xargs'
 * commandBase('GRM'); // 'rm'
 * ```
 */
export function commandBase(name: string): string {
  return programKind(shownName(name));
}

/**
 * The name reasons quote for the program `name` (as written, maybe with a folder): without its
 * folder and folded as {@link commandBase} folds it, but not read as another (`gxargs` stays
 * `gxargs`), so that a reason names the program the line wrote, not the one the checks took it for.
 *
 * @example
 * ```ts
 * shownName('/opt/homebrew/bin/gxargs'); // 'gxargs'
 * shownName('GRM'); // 'grm'
 * ```
 */
export function shownName(name: string): string {
  return foldCase(basename(name));
}
