/**
 * The files a simple command writes, as its line shows them: one reading serves both checks
 * of bash writes, the one for files other programs run (`executed-writes`) and the user's
 * `write` and `edit` rules (`write-rules`).
 *
 * @module
 */
import { awkRuns } from '../runs/awk-runs.js';
import { CHANGERS, changeWrites } from './change-writes.js';
import { COPIER_NAMES, copies } from './copy-writes.js';
import { DOWNLOADERS, downloads } from './download-writes.js';
import { gitWrites } from './git-writes.js';
import { globalConfigWrites } from './home-folder.js';
import { IN_PLACE_EDITORS, inPlaceWrites } from './inplace-writes.js';
import { PACKERS, packWrites } from './pack-writes.js';
import { sedWrites } from './sed-writes.js';
import { SSH_CLIENTS, sshConfigRead } from './ssh-writes.js';
import { lessVariableWrites, TOOL_WRITERS, toolWrites } from './tool-writes.js';
import { UNSEEN_WRITERS, unseenWrite } from './unseen-writes.js';
import { uniqWrites } from './uniq-writes.js';
import { sudoEdits, wrapperMovesFolder } from './wrapper-writes.js';
import { anyPath, type CommandWrites, type JoinedWrite, type WrittenWord } from './written-words.js';
import { quoted } from '../../quoted.js';

export type { CommandWrites, JoinedWrite, WrittenWord } from './written-words.js';

const NOTHING: CommandWrites = Object.freeze({ files: [], joined: [], names: [], chdir: false });
/** A tree named by a name ending in `/`: the folder with anything in it. */
const ANY_NAME: WrittenWord = Object.freeze({ text: '/', glob: false });
/** An option's name in front of its value (`--output=`, `-o`, `-t`): what follows may be the path. */
const OPTION_NAME = /^-{1,2}[A-Za-z-]*=?/;
/** Variables that give git another repository or configuration, which may set its work tree (`core.worktree`). */
const GIT_MOVERS = /^GIT_(?:DIR|CONFIG(?!_NOSYSTEM)[A-Z_0-9]*)(?:=|$)/;
/** Commands that set or export a variable its arguments name. */
const EXPORTERS = /^(?:export|declare|typeset|local|readonly)$/;

/**
 * What a simple command writes (see {@link CommandWrites}).
 *
 * @param base - the program's name as `commandBase` gives it (`sed` for `/usr/local/bin/gsed`).
 * @param args - its arguments (redirections dropped).
 * @param redirected - the targets of its output redirections (`>`, `>>`, `&>`, `<>`...).
 * @param assignments - the assignments in front of it (`GIT_WORK_TREE=dir git ...`, `WGETRC=f wget ...`).
 * @param shown - its name as the line wrote it (`gtar` for tar), which the reasons quote.
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * commandWrites('cp', [w('a'), w('src/')], []).joined; // [{ dir: w('src/'), name: w('a'), tree: false }]
 * commandWrites('tar', [w('-xf'), w('a.tar')], []).unseen; // 'tar extracting an archive...'
 * commandWrites('git', [w('checkout'), w('main')], []).joined[0]?.why; // '"git checkout main", which may rewrite any path...'
 * ```
 */
export function commandWrites(base: string, args: readonly WrittenWord[], redirected: readonly WrittenWord[], assignments: readonly string[] = [], shown = base): CommandWrites {
  const unseen = UNSEEN_WRITERS.has(base) ? unseenWrite(base, args.map((a) => a.text), shown) : undefined;
  // A configuration ssh reads (`-F f`) may write any path; the line is unreadable already (`option-runs`).
  const config = SSH_CLIENTS.has(base) ? sshConfigRead(base, args.map((a) => a.text)) : undefined;
  const settled = withSettings(base, args, ownWrites(base, args, assignments), assignments);
  const own = config === undefined ? settled : { ...settled, joined: [...settled.joined, anyPath(config)] };
  if (redirected.length === 0 && unseen === undefined && own === NOTHING) return NOTHING;
  return { ...own, files: [...redirected, ...own.files], ...(unseen === undefined ? {} : { unseen }) };
}


/**
 * What the environment makes a program write: git's `GIT_WORK_TREE` is a tree it fills, `HOME`
 * and `XDG_CONFIG_HOME` where `git config --global` writes, wget's
 * `WGETRC` may set any output; and exporting `GIT_WORK_TREE` or `GIT_DIR` (or setting it, in
 * case it was exported before: `export GIT_WORK_TREE; GIT_WORK_TREE=src`) lets the line's
 * later git commands write anywhere (`git restore a.ts` then writes `src/a.ts`).
 */
function withSettings(base: string, args: readonly WrittenWord[], found: CommandWrites, assignments: readonly string[]): CommandWrites {
  // `git config --global` writes `$HOME/.gitconfig` or under `$XDG_CONFIG_HOME`: judged where the line moves them (see `home-folder`).
  const global = base === 'git' ? globalConfigWrites(args, assignments) : [];
  const given = global.length === 0 ? found : { ...found, joined: [...found.joined, ...global] };
  // `LESS='-o f' git log`, `export LESS=-of`: whatever pages through less writes its log file.
  const logs = lessVariableWrites([...assignments, ...(EXPORTERS.test(base) ? args.map((a) => a.text) : [])]);
  const own = logs.length === 0 ? given : { ...given, files: [...given.files, ...logs] };
  const tree = base === 'git' ? assignments.find((a) => a.startsWith('GIT_WORK_TREE=')) : undefined;
  if (tree !== undefined) return { ...own, joined: [...own.joined, { dir: { text: tree.slice('GIT_WORK_TREE='.length), glob: false }, name: ANY_NAME, tree: true }] };
  // Another repository or configuration (`GIT_CONFIG_KEY_0=core.worktree`) may set a work tree anywhere.
  const elsewhere = base === 'git' ? assignments.find((a) => GIT_MOVERS.test(a)) : undefined;
  if (elsewhere !== undefined) return { ...own, joined: [...own.joined, anyPath(`${quoted(elsewhere.split('=')[0]!)} given to git, which may move where it writes`)] };
  if (base === 'wget' && assignments.some((a) => a.startsWith('WGETRC='))) return { ...own, unseen: 'wget reading a configuration file, which may write any path' };
  // Setting one without exporting counts too: it may have been exported before, or `set -a` exports it.
  const names = base === '' ? assignments : EXPORTERS.test(base) ? args.map((a) => a.text) : [];
  const moved = names.find((name) => /^GIT_WORK_TREE(?:=|$)/.test(name) || GIT_MOVERS.test(name));
  if (moved === undefined) return own;
  return { ...own, joined: [...own.joined, anyPath(`${quoted(moved.split('=')[0]!)} set for later git commands, which may write any path`)] };
}

/** Programs {@link ownWrites} reads; every other one writes nothing itself (checked first: this runs for every command). */
const WRITERS = new Set([...COPIER_NAMES, ...TOOL_WRITERS, ...CHANGERS, ...IN_PLACE_EDITORS, ...DOWNLOADERS, ...PACKERS,
  'tee', 'sponge', 'uniq', 'sed', 'awk', 'dd', 'cd', 'pushd', 'popd', 'git', 'env', 'sudo', 'sudoedit', 'chroot', 'npm', 'busybox']);
/** Where `busybox --install` without a folder puts its links: each applet's own folder. */
const BUSYBOX_FOLDERS = ['/bin', '/sbin', '/usr/bin', '/usr/sbin'];

/** What `base` (its name as `commandBase` gives it) writes itself, with `assignments` in front of it. */
function ownWrites(base: string, args: readonly WrittenWord[], assignments: readonly string[]): CommandWrites {
  if (!WRITERS.has(base)) return NOTHING;
  const operands = args.filter((a) => !a.text.startsWith('-') || a.text === '-');
  // For the executed-file check every word of a copy or a download may be a name that lands somewhere.
  const stripped = (): WrittenWord[] => args.map((a) => ({ ...a, text: a.text.replace(OPTION_NAME, '') }));
  if (COPIER_NAMES.has(base)) return { ...NOTHING, ...copies(base, args), names: stripped() };
  if (CHANGERS.has(base)) return { ...NOTHING, ...changeWrites(base, args, assignments) };
  if (base === 'tee' || base === 'sponge') return { ...NOTHING, files: operands.filter((a) => a.text !== '-') };
  if (base === 'uniq') return { ...NOTHING, files: uniqWrites(args) };
  if (DOWNLOADERS.has(base)) return { ...NOTHING, ...downloads(base, args, operands), names: stripped() };
  if (base === 'sed') return { ...NOTHING, ...sedWrites(args) };
  if (base === 'awk') return awkRuns(args, commandWrites);
  if (IN_PLACE_EDITORS.has(base)) {
    const { files, anyPath: why } = inPlaceWrites(base, args);
    return { ...NOTHING, files, joined: why === undefined ? [] : [anyPath(why)] };
  }
  // `busybox --install [-s] [DIR]` (only as its first words) makes a link named as each applet in DIR.
  if (base === 'busybox') {
    if (args[0]?.text !== '--install') return NOTHING;
    const dir = args[args[1]?.text === '-s' ? 2 : 1];
    const dirs = dir === undefined ? BUSYBOX_FOLDERS.map((text) => ({ text, glob: false })) : [dir];
    return { ...NOTHING, joined: dirs.map((d) => ({ dir: d, name: { text: '*', glob: true }, tree: false })) };
  }
  if (base === 'dd') return { ...NOTHING, files: args.filter((a) => a.text.startsWith('of=')).map((a) => ({ ...a, text: a.text.slice(3) })) };
  // `cd .git/hooks && echo x > pre-commit`: the folder entered is a name later writes land under.
  if (base === 'cd' || base === 'pushd' || base === 'popd') {
    const into = base === 'cd' && operands.length === 1 ? plainFolder(operands[0]!) : undefined;
    return { ...NOTHING, names: operands.slice(0, 1), chdir: true, ...(into === undefined ? {} : { into }) };
  }
  if (base === 'git') {
    const { files, trees, pathspecs = [], anyPath: why, unseen } = gitWrites(args);
    const joined: JoinedWrite[] = [...trees.map((dir) => ({ dir, name: ANY_NAME, tree: true })), ...pathspecs.map((dir) => ({ dir: { ...dir, changes: true }, name: ANY_NAME, tree: true }))];
    if (why !== undefined) joined.push(anyPath(why));
    return { ...NOTHING, files, joined, chdir: args.some((a) => /^-C/.test(a.text)), ...(unseen === undefined ? {} : { unseen }) };
  }
  // env's and sudo's `-C` / `-D` / `--chdir`, sudo's `-R` / `--chroot` (a new root: every path moves), `chroot dir cmd`.
  if (base === 'chroot') return { ...NOTHING, chdir: true };
  if (base === 'env' || base === 'sudo' || base === 'sudoedit') {
    // `sudo -e f` / `sudoedit f` write their operands.
    const edits = base === 'env' ? undefined : sudoEdits(base, args);
    const chdir = (base !== 'sudoedit' && wrapperMovesFolder(base, args)) || edits?.chdir === true;
    if (edits === undefined) return chdir ? { ...NOTHING, chdir } : NOTHING;
    return { ...NOTHING, files: edits.files, joined: edits.anyPath === undefined ? [] : [anyPath(edits.anyPath)], chdir };
  }
  if (TOOL_WRITERS.has(base)) return { ...NOTHING, files: toolWrites(base, args) };
  if (PACKERS.has(base)) return { ...NOTHING, ...packWrites(base, args) };
  // `npm pkg set scripts.test=...` rewrites package.json (npm's other commands write what the line does not show).
  if (base === 'npm' && /^(?:set|delete|fix)$/.test(operands[operands.indexOf(operands.find((a) => a.text === 'pkg')!) + 1]?.text ?? '')) {
    return { ...NOTHING, files: [{ ...operands[0]!, text: 'package.json' }] };
  }
  return NOTHING;
}

/**
 * The folder `cd` enters when the line names it plainly: relative, no `..` segment, no glob,
 * variable, substitution, brace expansion, `~` or `-`. bash's CDPATH is not consulted (the
 * bash tool's commands never inherit it, see `commandEnvironment`; a line setting it is
 * unreadable), so `cd frontend` enters `./frontend` or fails.
 */
function plainFolder(word: WrittenWord): string | undefined {
  const path = word.text;
  if (word.glob || path === '' || path === '-' || path.startsWith('/') || path.startsWith('~') || /[$`{}*?[\]\\!]/.test(path)) return undefined;
  return path.split('/').includes('..') ? undefined : path;
}
