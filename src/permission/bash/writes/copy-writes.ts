/**
 * What copies, moves and links write: `cp a b dir` writes `dir` (a file, or `dir/a` and
 * `dir/b`); `mv` also removes its sources; a link lets its source be written through it, with
 * all it holds (`ln -s . l`); `-t dir` names the folder; `install -d` makes every operand;
 * `scp`'s last operand is its destination.
 *
 * @module
 */
import { posix } from 'node:path';
import { operandsOf, optionValues } from '../option-values.js';
import type { CommandWrites, WrittenWord } from './written-words.js';

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
  scp: ['cDFiJloPSX', []],
};

/** The programs {@link copies} reads. */
export const COPIER_NAMES: ReadonlySet<string> = new Set(Object.keys(COPIERS));
/** A tree named by a name ending in `/`: the folder with anything in it. */
const ANY_NAME: WrittenWord = Object.freeze({ text: '/', glob: false });

/**
 * What a copy writes (see the module). An option after an operand may have taken one this
 * reading counts as an operand (`cp y src/a -Z x`): then every operand may be the destination.
 */
export function copies(base: string, args: readonly WrittenWord[]): Pick<CommandWrites, 'files' | 'joined'> {
  const [short, long] = COPIERS[base]!;
  const { operands, mixed } = operandsOf(args, short, long);
  // `install -d a b` makes each folder it names.
  if (base === 'install' && args.some((a) => /^-[A-Za-z]*d|^--directory/.test(a.text))) return { files: operands, joined: [] };
  // rsync's `-t` keeps times, scp has none: only the GNU tools take a target folder.
  const target = base === 'rsync' || base === 'scp' ? undefined : optionValues(args, 't', ['target-directory'])[0];
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
  // `-T` (`cp -rT y .`): the destination is the folder itself, filled with what the source holds, any name in it.
  const noTarget = args.some((a) => /^-[A-Za-z]*T|^--no-target-directory$/.test(a.text));
  return { files, joined: [...sources.map((name) => ({ dir, name: noTarget ? ANY_NAME : name, tree })), ...through] };
}
