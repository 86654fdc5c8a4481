/**
 * The files a simple command writes, as its line shows them: one reading serves both checks
 * of bash writes, the one for files other programs run (`executed-writes`) and the user's
 * `write` and `edit` rules (`write-rules`).
 *
 * @module
 */
import { posix } from 'node:path';
import { awkWrites } from './awk-writes.js';
import { gitWrites } from './git-writes.js';
import { operandsOf, optionValues } from './option-values.js';
import { sedWrites } from './sed-writes.js';
import { TOOL_WRITERS, toolWrites } from './tool-writes.js';
import { UNSEEN_WRITERS, unseenWrite } from './unseen-writes.js';

/** A word of a command as the shell parser gave it. */
export interface WrittenWord {
  readonly text: string;
  readonly glob: boolean;
}

/** What one simple command writes, as far as its line shows. */
export interface CommandWrites {
  /** Paths it writes: its output redirections' targets, `cp`'s destination, `tee`'s and `sed -i`'s operands, `curl -o f`... */
  readonly files: readonly WrittenWord[];
  /** Names that land in a folder: `cp a b dir` writes `dir/a` and `dir/b`, `curl -O url/x` writes `./x`. */
  readonly joined: readonly { readonly dir: WrittenWord; readonly name: WrittenWord; readonly tree: boolean }[];
  /** Every other word that may name what it writes (a copy's source, a url, the folder `cd` enters): the executed-file check reads these too. */
  readonly names: readonly WrittenWord[];
  /** Why it may write paths its line does not show (`tar -x`), if it may. */
  readonly unseen?: string;
  /** Whether it changes the folder that later relative paths are read from (`cd`, `pushd`, `git -C`, `env -C`). */
  readonly chdir: boolean;
}

const NOTHING: CommandWrites = Object.freeze({ files: [], joined: [], names: [], chdir: false });
/** Programs that copy, move or link their operands to the last one (or to `-t dir`), with the options that take a value. */
const COPIERS: Readonly<Record<string, readonly [string, readonly string[]]>> = {
  cp: ['St', ['suffix', 'target-directory', 'no-preserve', 'sparse']],
  mv: ['St', ['suffix', 'target-directory']],
  ln: ['St', ['suffix', 'target-directory']],
  link: ['', []],
  install: ['gmoSt', ['group', 'mode', 'owner', 'suffix', 'target-directory', 'strip-program']],
  rsync: ['eBfTM', ['rsh', 'rsync-path', 'exclude', 'include', 'filter', 'exclude-from', 'include-from', 'files-from', 'backup-dir', 'suffix',
    'chmod', 'chown', 'usermap', 'groupmap', 'log-file', 'log-file-format', 'partial-dir', 'temp-dir', 'compare-dest', 'copy-dest', 'link-dest',
    'password-file', 'timeout', 'contimeout', 'bwlimit', 'max-size', 'min-size', 'block-size', 'out-format', 'remote-option', 'port', 'address']],
};
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk']);
/** A tree named by a name ending in `/`: the folder with anything in it. */
const ANY_NAME = Object.freeze({ text: '/', glob: false });
/** An option's name in front of its value (`--output=`, `-o`, `-t`): what follows may be the path. */
const OPTION_NAME = /^-{1,2}[A-Za-z-]*=?/;
/** Options whose value is a file the program writes, by program: short letters, then long names. */
const OUTPUT_OPTIONS: Readonly<Record<string, readonly [string, readonly string[]]>> = {
  sort: ['o', ['output']],
  curl: ['oDc', ['output', 'dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'stderr', 'libcurl', 'etag-save', 'hsts', 'alt-svc']],
  wget: ['Ooa', ['output-document', 'output-file', 'append-output']],
};

/**
 * What a simple command writes (see {@link CommandWrites}).
 *
 * @param base - the program's name without its folder.
 * @param args - its arguments (redirections dropped).
 * @param redirected - the targets of its output redirections (`>`, `>>`, `&>`, `<>`...).
 * @param assignments - the assignments in front of it (`GIT_WORK_TREE=dir git ...`, `WGETRC=f wget ...`).
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * commandWrites('cp', [w('a'), w('src/')], []).joined; // [{ dir: w('src/'), name: w('a'), tree: false }]
 * commandWrites('tar', [w('-xf'), w('a.tar')], []).unseen; // 'tar extracting an archive...'
 * ```
 */
export function commandWrites(base: string, args: readonly WrittenWord[], redirected: readonly WrittenWord[], assignments: readonly string[] = []): CommandWrites {
  const unseen = UNSEEN_WRITERS.has(base) ? unseenWrite(base, args.map((a) => a.text)) : undefined;
  const own = withSettings(base, ownWrites(base, args), assignments);
  if (redirected.length === 0 && unseen === undefined && own === NOTHING) return NOTHING;
  return { ...own, files: [...redirected, ...own.files], ...(unseen === undefined ? {} : { unseen }) };
}

/** What the environment makes a program write: git's `GIT_WORK_TREE` is a tree it fills, wget's `WGETRC` may set any output. */
function withSettings(base: string, own: CommandWrites, assignments: readonly string[]): CommandWrites {
  const tree = base === 'git' ? assignments.find((a) => a.startsWith('GIT_WORK_TREE=')) : undefined;
  if (tree !== undefined) return { ...own, joined: [...own.joined, { dir: { text: tree.slice('GIT_WORK_TREE='.length), glob: false }, name: ANY_NAME, tree: true }] };
  if (base === 'wget' && assignments.some((a) => a.startsWith('WGETRC='))) return { ...own, unseen: 'wget reading a configuration file, which may write any path' };
  return own;
}

/** Programs {@link ownWrites} reads; every other one writes nothing itself (checked first: this runs for every command). */
const WRITERS = new Set([...Object.keys(COPIERS), ...AWKS, ...TOOL_WRITERS, 'tee', 'sponge', 'truncate', 'uniq', 'curl', 'wget', 'sort', 'sed', 'dd', 'cd', 'pushd', 'popd', 'git', 'env', 'sudo']);

function ownWrites(base: string, args: readonly WrittenWord[]): CommandWrites {
  if (!WRITERS.has(base)) return NOTHING;
  const operands = args.filter((a) => !a.text.startsWith('-') || a.text === '-');
  // For the executed-file check every word of a copy or a download may be a name that lands somewhere.
  const stripped = (): WrittenWord[] => args.map((a) => ({ ...a, text: a.text.replace(OPTION_NAME, '') }));
  if (Object.hasOwn(COPIERS, base)) return { ...copies(base, args), names: stripped() };
  if (base === 'tee' || base === 'sponge' || base === 'truncate') return { ...NOTHING, files: operands.filter((a) => a.text !== '-') };
  // Its output file is its second operand, past the values of `-f`, `-s`, `-w`.
  if (base === 'uniq') return { ...NOTHING, files: operandsOf(args, 'fsw', ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated']).operands.slice(1, 2) };
  if (base === 'curl' || base === 'wget' || base === 'sort') return { ...NOTHING, ...downloads(base, args, operands), names: stripped() };
  if (base === 'sed') return { ...NOTHING, ...sedWrites(args) };
  if (AWKS.has(base)) return { ...NOTHING, ...awkWrites(args) };
  if (base === 'dd') return { ...NOTHING, files: args.filter((a) => a.text.startsWith('of=')).map((a) => ({ ...a, text: a.text.slice(3) })) };
  // `cd .git/hooks && echo x > pre-commit`: the folder entered is a name later writes land under.
  if (base === 'cd' || base === 'pushd' || base === 'popd') return { ...NOTHING, names: operands.slice(0, 1), chdir: true };
  if (base === 'git') {
    const { files, trees, unseen } = gitWrites(args);
    const joined = trees.map((dir) => ({ dir, name: ANY_NAME, tree: true }));
    return { ...NOTHING, files, joined, chdir: args.some((a) => /^-C/.test(a.text)), ...(unseen === undefined ? {} : { unseen }) };
  }
  if (base === 'env' || base === 'sudo') return args.some((a) => /^-[A-Za-z]*[CD]|^--chdir/.test(a.text)) ? { ...NOTHING, chdir: true } : NOTHING;
  if (TOOL_WRITERS.has(base)) return { ...NOTHING, files: toolWrites(base, args) };
  return NOTHING;
}

/**
 * `cp a b dir` writes `dir` (a file, or `dir/a` and `dir/b`); `mv` also removes its sources;
 * a link lets its source be written through it, with all it holds (`ln -s . l`); `-t dir`
 * names the folder. An option after an operand may have taken one this reading counts as an
 * operand (`cp y src/a -Z x`): then every operand may be the destination.
 */
function copies(base: string, args: readonly WrittenWord[]): CommandWrites {
  const [short, long] = COPIERS[base]!;
  const { operands, mixed } = operandsOf(args, short, long);
  // rsync's `-t` keeps times: only the GNU tools take a target folder.
  const target = base === 'rsync' ? undefined : optionValues(args, 't', ['target-directory'])[0];
  const dir = target ?? (operands.length > 1 ? operands[operands.length - 1]! : { text: '.', glob: false });
  const sources = target !== undefined || operands.length < 2 ? operands : operands.slice(0, -1);
  // A folder copied or moved lands with all it holds: `cp -r x/src .` writes `src/...`.
  const tree = base === 'mv' || args.some((a) => /^-[A-Za-z]*[rRa]|^--(?:recursive|archive)/.test(a.text));
  const linked = base === 'ln' || base === 'link' || (base === 'cp' && args.some((a) => /^-[A-Za-z]*[ls]|^--(?:link|symbolic)/.test(a.text)));
  const files = [...(target === undefined && operands.length > 1 ? [dir] : []), ...(base === 'mv' ? sources : []), ...(mixed ? operands : [])];
  const through = linked ? sources.map((source) => ({ dir: source, name: ANY_NAME, tree: true })) : [];
  // A symbolic link's relative source is read from the link's folder: `ln -s x sub/l` leads to `sub/x`.
  if ((base === 'ln' || base === 'cp') && args.some((a) => /^-[A-Za-z]*s|^--sym/.test(a.text))) {
    for (const source of sources.filter((a) => !a.text.startsWith('/'))) {
      for (const folder of new Set([dir.text, posix.dirname(dir.text)])) through.push({ dir: { ...source, text: posix.join(folder, source.text) }, name: ANY_NAME, tree: true });
    }
  }
  return { ...NOTHING, files, joined: [...sources.map((name) => ({ dir, name, tree })), ...through] };
}

/** `curl -o f`, `sort -o f`, `wget -O f`; a download named after its url (`curl -O`, `wget url`) lands in `--output-dir` / `-P`, else here. */
function downloads(base: string, args: readonly WrittenWord[], operands: readonly WrittenWord[]): Pick<CommandWrites, 'files' | 'joined' | 'unseen'> {
  const [short, long] = OUTPUT_OPTIONS[base]!;
  const files = optionValues(args, short, long).filter((a) => a.text !== '-');
  if (base === 'sort') return { files, joined: [] };
  // A config file or `-e` commands may set any output, and curl's `#1` takes a part of the url.
  if (base === 'curl' && (optionValues(args, 'K', ['config']).length > 0 || files.some((f) => /#\d/.test(f.text)))) return { files, joined: [], unseen: 'curl with a config file or a "#N" output name, which may write any path' };
  if (base === 'wget' && optionValues(args, 'e', ['execute']).length > 0) return { files, joined: [], unseen: 'wget running "-e" commands, which may write any path' };
  const dir = optionValues(args, base === 'curl' ? '' : 'P', [base === 'curl' ? 'output-dir' : 'directory-prefix'])[0] ?? { text: '.', glob: false };
  const named = base === 'wget' ? !args.some((a) => /^-[A-Za-z]*O|^--output-document/.test(a.text)) : args.some((a) => /^-[A-Za-z]*O|^--remote-name/.test(a.text));
  const urls = operands.filter((a) => /^[a-z][a-z0-9+.-]*:\/\//i.test(a.text) || a.text.includes('$'));
  // Names the line does not show: a server's (`curl -J`), a whole site's (`wget -r`), a list's (`wget -i`): anything in that folder.
  const anyName = base === 'curl' ? /^-[A-Za-z]*J|^--remote-header/ : /^-[A-Za-z]*[rmpxi]|^--(?:rec|mir|page|force-d|input|content-d)/;
  if (named && args.some((a) => anyName.test(a.text) && !a.text.startsWith('-n'))) return { files, joined: [{ dir, name: { text: '/', glob: false }, tree: true }] };
  return { files, joined: named ? urls.map((url) => ({ dir, name: url, tree: false })) : [] };
}

/**
 * The word xargs replaces with each input item: `-I R`, `-IR`, `--replace=R`, or `{}` for
 * `-i` / `--replace`; `undefined` when it only appends items.
 */
export function xargsPlaceholder(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length && args[i]!.startsWith('-'); i += 1) {
    const arg = args[i]!;
    if (arg === '-I') return args[i + 1];
    if (arg.startsWith('-I')) return arg.slice(2);
    if (arg.startsWith('--replace=')) return arg.slice('--replace='.length) || '{}';
    if (arg === '-i' || arg === '--replace') return '{}';
  }
  return undefined;
}
