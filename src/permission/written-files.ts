/**
 * The files a simple command writes, as its line shows them: one reading serves both checks
 * of bash writes, the one for files other programs run (`executed-writes`) and the user's
 * `write` and `edit` rules (`write-rules`).
 *
 * @module
 */
import { optionValues } from './option-values.js';
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
/** Programs that copy, move or link their operands to the last one (or to `-t dir`). */
const COPIERS = new Set(['cp', 'mv', 'ln', 'link', 'install', 'rsync']);
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk']);
/** An option's name in front of its value (`--output=`, `-o`, `-t`): what follows may be the path. */
const OPTION_NAME = /^-{1,2}[A-Za-z-]*=?/;
/** `sed` edits its file operands in place with `-i`. */
const IN_PLACE = /^(?:-[A-Za-z]*i.*|--in-place(?:=.*)?)$/s;
/** Options whose value is a file the program writes, by program: short letters, then long names. */
const OUTPUT_OPTIONS: Readonly<Record<string, readonly [string, readonly string[]]>> = {
  sort: ['o', ['output']],
  curl: ['oDc', ['output', 'dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'stderr', 'libcurl', 'etag-save', 'hsts', 'alt-svc']],
  wget: ['Ooa', ['output-document', 'output-file', 'append-output']],
};
/** git options whose value is a file or folder git writes: `diff --output=f`, `format-patch -o dir`, `archive -o f`. */
const GIT_OUTPUT_LONG = ['output', 'output-directory'];

/**
 * What a simple command writes (see {@link CommandWrites}).
 *
 * @param base - the program's name without its folder.
 * @param args - its arguments (redirections dropped).
 * @param redirected - the targets of its output redirections (`>`, `>>`, `&>`, `<>`...).
 *
 * @example
 * ```ts
 * const w = (text: string) => ({ text, glob: false });
 * commandWrites('cp', [w('a'), w('src/')], []).joined; // [{ dir: w('src/'), name: w('a'), tree: false }]
 * commandWrites('tar', [w('-xf'), w('a.tar')], []).unseen; // 'tar extracting an archive...'
 * ```
 */
export function commandWrites(base: string, args: readonly WrittenWord[], redirected: readonly WrittenWord[]): CommandWrites {
  const unseen = UNSEEN_WRITERS.has(base) ? unseenWrite(base, args.map((a) => a.text)) : undefined;
  const own = ownWrites(base, args);
  if (redirected.length === 0 && unseen === undefined && own === NOTHING) return NOTHING;
  return { ...own, files: [...redirected, ...own.files], ...(unseen === undefined ? {} : { unseen }) };
}

/** Programs {@link ownWrites} reads; every other one writes nothing itself (checked first: this runs for every command). */
const WRITERS = new Set([...COPIERS, ...AWKS, 'tee', 'sponge', 'truncate', 'uniq', 'curl', 'wget', 'sort', 'sed', 'dd', 'cd', 'pushd', 'popd', 'git', 'env', 'sudo']);

function ownWrites(base: string, args: readonly WrittenWord[]): CommandWrites {
  if (!WRITERS.has(base)) return NOTHING;
  const operands = args.filter((a) => !a.text.startsWith('-') || a.text === '-');
  // For the executed-file check every word of a copy or a download may be a name that lands somewhere.
  const stripped = (): WrittenWord[] => args.map((a) => ({ ...a, text: a.text.replace(OPTION_NAME, '') }));
  if (COPIERS.has(base)) return { ...copies(base, args, operands), names: stripped() };
  if (base === 'tee' || base === 'sponge' || base === 'truncate') return { ...NOTHING, files: operands.filter((a) => a.text !== '-') };
  // Its output file is its second operand: in doubt the last (an option's value may be among them).
  if (base === 'uniq') return operands.length > 1 ? { ...NOTHING, files: [operands[operands.length - 1]!] } : NOTHING;
  if (base === 'curl' || base === 'wget' || base === 'sort') return { ...NOTHING, ...downloads(base, args, operands), names: stripped() };
  if (base === 'sed') return { ...NOTHING, files: [...(args.some((a) => IN_PLACE.test(a.text)) ? operands : []), ...sedWrites(args)] };
  // awk's `print > "f"` writes the file its program names; gawk's `-i inplace` edits its operands.
  if (AWKS.has(base)) {
    const named = args.flatMap((a) => [...a.text.matchAll(/"([^"]*)"/g)].map((m) => ({ ...a, text: m[1]! })));
    // `print > f` with a variable or an expression: a file only known when it runs.
    const computed = args.flatMap((a) => [...a.text.matchAll(/printf?\b[^;}\n]*?>>?[ \t]*([^"\s>][^;}\n]*)/g)].map((m) => ({ text: `\${awk:${m[1]!.replace(/[{}]/g, '').trim()}}`, glob: false })));
    return { ...NOTHING, files: [...named, ...computed, ...(args.some((a) => a.text.includes('inplace')) ? operands : [])] };
  }
  if (base === 'dd') return { ...NOTHING, files: args.filter((a) => a.text.startsWith('of=')).map((a) => ({ ...a, text: a.text.slice(3) })) };
  // `cd .git/hooks && echo x > pre-commit`: the folder entered is a name later writes land under.
  if (base === 'cd' || base === 'pushd' || base === 'popd') return { ...NOTHING, names: operands.slice(0, 1), chdir: true };
  if (base === 'git') return { ...NOTHING, files: gitWritten(args), chdir: args.some((a) => /^-C/.test(a.text)) };
  if (base === 'env' || base === 'sudo') return args.some((a) => /^-[A-Za-z]*[CD]|^--chdir/.test(a.text)) ? { ...NOTHING, chdir: true } : NOTHING;
  return NOTHING;
}

/** `cp a b dir` writes `dir` (a file, or `dir/a` and `dir/b`); `mv` also removes its sources, a link lets them be written; `-t dir` names the folder. */
function copies(base: string, args: readonly WrittenWord[], operands: readonly WrittenWord[]): CommandWrites {
  // rsync's `-t` keeps times: only the GNU tools take a target folder.
  const target = base === 'rsync' ? undefined : optionValues(args, 't', ['target-directory'])[0];
  const dir = target ?? (operands.length > 1 ? operands[operands.length - 1]! : { text: '.', glob: false });
  const sources = target !== undefined || operands.length < 2 ? operands : operands.slice(0, -1);
  // A folder copied or moved lands with all it holds: `cp -r x/src .` writes `src/...`.
  const tree = base === 'mv' || args.some((a) => /^-[A-Za-z]*[rRa]|^--(?:recursive|archive)/.test(a.text));
  // A link (`ln`, `cp -l` / `-s`) makes its source writable through it: the source counts as written, as a move's does.
  const linked = base === 'mv' || base === 'ln' || base === 'link' || args.some((a) => /^-[A-Za-z]*[ls]|^--(?:link|symbolic)/.test(a.text) && base === 'cp');
  const files = [...(target === undefined && operands.length > 1 ? [dir] : []), ...(linked ? sources : [])];
  return { ...NOTHING, files, joined: sources.map((name) => ({ dir, name, tree })) };
}

/** `curl -o f`, `sort -o f`, `wget -O f`; a download named after its url (`curl -O`, `wget url`) lands in `--output-dir` / `-P`, else here. */
function downloads(base: string, args: readonly WrittenWord[], operands: readonly WrittenWord[]): Pick<CommandWrites, 'files' | 'joined'> {
  const [short, long] = OUTPUT_OPTIONS[base]!;
  const files = optionValues(args, short, long).filter((a) => a.text !== '-');
  if (base === 'sort') return { files, joined: [] };
  const dir = optionValues(args, base === 'curl' ? '' : 'P', [base === 'curl' ? 'output-dir' : 'directory-prefix'])[0] ?? { text: '.', glob: false };
  const named = base === 'wget' ? !args.some((a) => /^-[A-Za-z]*O|^--output-document/.test(a.text)) : args.some((a) => /^-[A-Za-z]*O|^--remote-name/.test(a.text));
  const urls = operands.filter((a) => /^[a-z][a-z0-9+.-]*:\/\//i.test(a.text) || a.text.includes('$'));
  // Names the line does not show: a server's (`curl -J`), a whole site's (`wget -r`), a list's (`wget -i`): anything in that folder.
  const anyName = base === 'curl' ? /^-[A-Za-z]*J|^--remote-header/ : /^-[A-Za-z]*[rmpxi]|^--(?:rec|mir|page|force-d|input|content-d)/;
  if (named && args.some((a) => anyName.test(a.text) && !a.text.startsWith('-n'))) return { files, joined: [{ dir, name: { text: '/', glob: false }, tree: true }] };
  return { files, joined: named ? urls.map((url) => ({ dir, name: url, tree: false })) : [] };
}

/** The files named by sed's `w` and `W` commands and `s///w` flags: each runs to the end of its line; in doubt any `w` counts (they overlap, so a later one is seen too). */
function sedWrites(args: readonly WrittenWord[]): WrittenWord[] {
  return args.flatMap((a) => [...a.text.matchAll(/[wW](?=[ \t]*([^\n]+))/g)].map((m) => ({ ...a, text: m[1]!.trim() })));
}

/** What git writes by its output options, and the folder `git worktree add` checks files out into. */
function gitWritten(args: readonly WrittenWord[]): WrittenWord[] {
  const out: WrittenWord[] = [];
  const texts = args.map((a) => a.text);
  const worktree = texts.indexOf('worktree');
  if (worktree >= 0 && texts[worktree + 1] === 'add') out.push(...args.slice(worktree + 2).filter((a) => !a.text.startsWith('-')));
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const long = /^--([A-Za-z-]{3,})(?:=(.*))?$/s.exec(arg.text);
    // git takes an unambiguous abbreviation (`--outp=f`); in doubt any prefix counts.
    if (long !== null && GIT_OUTPUT_LONG.some((name) => name.startsWith(long[1]!))) {
      const value = long[2] ?? args[i + 1]?.text;
      if (value !== undefined) out.push({ ...arg, text: value });
    } else if (/^-o./s.test(arg.text)) out.push({ ...arg, text: arg.text.slice(2) });
    else if (arg.text === '-o' && args[i + 1] !== undefined) out.push(args[i + 1]!);
  }
  return out;
}
