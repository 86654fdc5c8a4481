/**
 * What downloads, `sort` and `shuf` write: `curl -o f`, `sort -o f`, `shuf -o f`, `wget -O f`; a
 * download named after its url (`curl -O`, `wget url`) lands in `--output-dir` / `-P`, else here.
 * A word only known when it runs may be an output option (`o=-o; sort $o f`): any path.
 *
 * @module
 */
import { optionValues, runTimeOptionWord } from '../option-values.js';
import { quoted } from '../../quoted.js';
import { anyPath, type CommandWrites, type WrittenWord } from './written-words.js';

/** Options whose value is a file the program writes, by program: short letters, then long names. */
const OUTPUT_OPTIONS: Readonly<Record<string, readonly [string, readonly string[]]>> = {
  sort: ['o', ['output']],
  shuf: ['o', ['output']],
  curl: ['oDc', ['output', 'dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'stderr', 'libcurl', 'etag-save', 'hsts', 'alt-svc']],
  wget: ['Ooa', ['output-document', 'output-file', 'append-output']],
};

/** The programs {@link downloads} reads. */
export const DOWNLOADERS: ReadonlySet<string> = new Set(Object.keys(OUTPUT_OPTIONS));

/** What `curl`, `wget`, `sort` or `shuf` with `args` (of which `operands` are no options) write (see the module). */
export function downloads(base: string, args: readonly WrittenWord[], operands: readonly WrittenWord[]): Pick<CommandWrites, 'files' | 'joined' | 'unseen'> {
  const shown = shownWrites(base, args, operands);
  const hidden = runTimeOptionWord(args);
  if (hidden === undefined) return shown;
  return { ...shown, joined: [...shown.joined, anyPath(`a word only known when it runs (${quoted(hidden.text)}), which may be an output option of ${quoted(base)} and write any path`)] };
}

/** What the options and operands the line shows make `base` write. */
function shownWrites(base: string, args: readonly WrittenWord[], operands: readonly WrittenWord[]): Pick<CommandWrites, 'files' | 'joined' | 'unseen'> {
  const [short, long] = OUTPUT_OPTIONS[base]!;
  const files = optionValues(args, short, long).filter((a) => a.text !== '-');
  if (base === 'sort' || base === 'shuf') return { files, joined: [] };
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
