/**
 * What a `git` line writes as its words show it: the output options of its diff family
 * (`--output=f`, `--output-directory`), `format-patch -o dir` and `archive -o f`, a tree
 * another command fills (`worktree add dir`, `clone url dir`, `init dir`, `submodule add url
 * dir`, `--work-tree=dir`, `--separate-git-dir=dir`), `git mv`'s destination and sources, `bundle create f`; and, as
 * "any path", `checkout-index` and `update-index --cacheinfo` / `--index-info`, which write
 * (or stage for a checkout) paths named in their data; the commands that rewrite the working
 * tree as `git-tree-writes` reads them.
 *
 * @module
 */
import { gitTreeWrites } from './git-tree-writes.js';
import { operandsOf, optionValues } from '../option-values.js';

/** A word of a command, as the shell parser gave it. */
interface Word {
  readonly text: string;
  readonly glob: boolean;
}

/** What git writes: files, folders written with all they hold, and why it may write any path. */
export interface GitWrites<W extends Word> {
  readonly files: W[];
  readonly trees: W[];
  /** Pathspecs a working-tree command restores or removes, each a folder with all it holds (see `git-tree-writes`). */
  readonly pathspecs?: W[];
  /** Why it may write any path of the working tree, which the line does not make unreadable (`git checkout main`). */
  readonly anyPath?: string;
  /** Why it may write any path from data: the line cannot be read (`git apply`). */
  readonly unseen?: string;
}

/** git's options before its command that take the next word as a value. */
const GLOBAL_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path']);
/** Long output options of the diff family, taken in any unambiguous abbreviation (`--outp=f`). */
const OUTPUT_LONG = ['output', 'output-directory'];
/** Commands whose `-o` names what they write. */
const SHORT_O = new Set(['format-patch', 'archive']);
/** Options of `clone` and `submodule add` taking a value, so that their operands are found. */
const CLONE_SHORT = 'bcoju';
const CLONE_LONG = ['branch', 'config', 'origin', 'upload-pack', 'template', 'reference', 'reference-if-able', 'depth', 'shallow-since',
  'shallow-exclude', 'separate-git-dir', 'server-option', 'filter', 'name', 'jobs', 'bundle-uri', 'ref-format', 'object-format'];

/** What `git` with `args` writes (see the module). */
export function gitWrites<W extends Word>(args: readonly W[]): GitWrites<W> {
  const files: W[] = [];
  const trees: W[] = [];
  let i = 0;
  for (; i < args.length && args[i]!.text.startsWith('-'); i += 1) {
    const text = args[i]!.text;
    if (/^--work-tree=/.test(text)) trees.push({ ...args[i]!, text: text.slice('--work-tree='.length) });
    else if (text === '--work-tree' && args[i + 1] !== undefined) trees.push(args[i + 1]!);
    else if (text === '-c' || /^--config-env(?:=|$)/.test(text)) trees.push(...configuredTree(args[i]!, args[i + 1]));
    if (GLOBAL_VALUED.has(text)) i += 1;
  }
  const command = args[i]?.text;
  const rest = args.slice(i + 1);
  const seen = { files, trees };
  for (let j = 0; j < rest.length; j += 1) {
    const arg = rest[j]!;
    const long = /^--([A-Za-z-]{3,})(?:=(.*))?$/s.exec(arg.text);
    if (long !== null && OUTPUT_LONG.some((name) => name.startsWith(long[1]!))) {
      const value = long[2] !== undefined ? { ...arg, text: long[2] } : rest[j + 1];
      if (value !== undefined) files.push(value);
    } else if (command !== undefined && SHORT_O.has(command) && /^-o./s.test(arg.text)) files.push({ ...arg, text: arg.text.slice(2) });
    else if (command !== undefined && SHORT_O.has(command) && arg.text === '-o' && rest[j + 1] !== undefined) files.push(rest[j + 1]!);
  }
  const { operands } = operandsOf(rest, CLONE_SHORT, CLONE_LONG);
  // `init` / `clone --separate-git-dir=d` makes the repository in d, not in the tree's `.git`.
  if (command === 'init' || command === 'clone') trees.push(...optionValues(rest, '', ['separate-git-dir']));
  const at = (text: string): W => ({ ...(rest[0] ?? args[0]!), text });
  switch (command) {
    case 'worktree':
      if (operands[0]?.text === 'add' && operands[1] !== undefined) trees.push(operands[1]);
      break;
    case 'clone':
      // Without a folder the repository's name, less `.git`, is made here.
      if (operands[0] !== undefined) trees.push(operands[1] ?? at(repositoryName(operands[0].text)));
      break;
    case 'init':
      // Without a folder it makes `.git` here, which the check of files other programs run already covers.
      if (operands[0] !== undefined) trees.push(operands[0]);
      break;
    case 'submodule':
      if (operands[0]?.text === 'add' && operands[1] !== undefined) trees.push(operands[2] ?? at(repositoryName(operands[1].text)));
      break;
    case 'config':
      // Stored, `core.worktree` moves where the line's later git commands write.
      if (rest.some((a) => /^core\.worktree$/i.test(a.text)) && !rest.some((a) => /^(?:--get|--unset|get$|unset$)/.test(a.text))) {
        return { ...seen, anyPath: '"git config core.worktree", which moves where later git commands write' };
      }
      break;
    case 'bundle':
      if (operands[0]?.text === 'create' && operands[1] !== undefined) files.push(operands[1]);
      break;
    case 'mv':
      // Like `mv`: the last operand is written (a folder: what lands in it), the sources are removed.
      files.push(...operands);
      if (operands.length > 1) trees.push(operands[operands.length - 1]!);
      break;
    case 'checkout-index':
      return { ...seen, unseen: '"git checkout-index", which writes the index\'s files, at any path a --prefix or the index gives' };
    case 'update-index':
      if (rest.some((a) => /^--(?:cacheinfo|index-info)/.test(a.text))) return { ...seen, unseen: '"git update-index --cacheinfo", which stages content for any path a later checkout writes' };
      break;
    default:
      break;
  }
  const tree = command === undefined ? undefined : gitTreeWrites(command, rest);
  return tree === undefined ? seen : { ...seen, pathspecs: tree.pathspecs, ...(tree.anyPath === undefined ? {} : { anyPath: tree.anyPath }) };
}

/**
 * The tree `-c core.worktree=dir` (any letter case) makes git write into. A relative one is
 * relative to the repository's folder, which may be anywhere (`$GIT_DIR/dir`), and
 * `--config-env core.worktree=VAR` names a folder known only when it runs (`$VAR`).
 */
function configuredTree<W extends Word>(option: W, next: W | undefined): W[] {
  const joined = option.text.startsWith('--config-env=') ? option.text.slice('--config-env='.length) : next?.text;
  const found = /^core\.worktree=(.*)$/is.exec(joined ?? '');
  if (found === null) return [];
  const value = found[1]!;
  return [{ ...option, text: option.text !== '-c' ? `$${value}` : value.startsWith('/') ? value : `$GIT_DIR/${value}` }];
}

/** The folder `git clone url` makes: the url's last part, less `.git` (`https://x/y.git/` is `y`). */
function repositoryName(url: string): string {
  const last = url.replace(/[/\\]+$/, '').replace(/\.git$/, '').split(/[/:\\]/).pop() ?? '';
  return last === '' ? '.' : last;
}
