/**
 * What compressors, `zip` and `sqlite3` write. `gzip f` (bzip2, xz, their `un-` twins...)
 * replaces each file operand with one of another suffix (`f.gz`, or `f` from `f.gz` with `-d`),
 * a folder's files with `-r`; `zip a.zip f` writes its archive (`a` gets `.zip`), and with `-m`
 * removes the files it adds; `sqlite3 f.db` opens (and makes) its database. sqlite3's own
 * commands (`.output`, `.system`) are an interpreter's, as the docs say: not read here.
 *
 * @module
 */
import { operandsOf } from '../option-values.js';
import type { CommandWrites, WrittenWord } from './written-words.js';

/** Compressors that replace each file operand, by name. */
const COMPRESSORS: ReadonlySet<string> = new Set(['gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'lzma', 'unlzma', 'pigz', 'unpigz', 'zstd', 'unzstd', 'lzip', 'lz4']);
/** Their options taking a value (`-S .z`, `-T 4`, zstd's `-o f`, whose value they write). */
const COMPRESSOR_VALUED = 'SbpTMo';
const COMPRESSOR_LONG = ['suffix', 'threads', 'memlimit', 'memory', 'format', 'check', 'block-size', 'output'];
/** Options after which they write only to their output, or nothing (`-c`, `-t`, `-l`, `--stdout`, `--test`, `--list`). */
const READS_ONLY = /^-[A-Za-z0-9]*[ctl]|^--(?:stdout|to-stdout|test|list)/;
/** zip's options taking a value. */
const ZIP_VALUED = 'bnOPtxiZsY';
/** sqlite3's options taking a value (single dash, or two). */
const SQLITE_VALUED = new Set(['cmd', 'separator', 'newline', 'nullvalue', 'init', 'mmap', 'maxsize', 'vfs', 'escape', 'lookaside', 'pagecache', 'heap']);

/** A tree named by a name ending in `/`: the folder with anything in it. */
const ANY_NAME: WrittenWord = Object.freeze({ text: '/', glob: false });

/** The programs {@link packWrites} reads. */
export const PACKERS: ReadonlySet<string> = new Set([...COMPRESSORS, 'zip', 'sqlite3', 'sqlite']);

/** What `base` with `args` writes (see the module). */
export function packWrites(base: string, args: readonly WrittenWord[]): Pick<CommandWrites, 'files' | 'joined'> {
  if (base === 'zip') return zipWrites(args);
  if (base === 'sqlite3' || base === 'sqlite') return { files: sqliteFile(args), joined: [] };
  const { operands } = operandsOf(args, COMPRESSOR_VALUED, COMPRESSOR_LONG);
  const output = outputs(args);
  if (args.some((a) => READS_ONLY.test(a.text))) return { files: output, joined: [] };
  const files = operands.filter((a) => a.text !== '-');
  // With `-r` a folder's files, each replaced: the folder with anything in it.
  if (args.some((a) => /^-[A-Za-z0-9]*r|^--recursive/.test(a.text))) return { files: output, joined: files.map((dir) => ({ dir: { ...dir, changes: true }, name: ANY_NAME, tree: true })) };
  // Each operand is removed and a name beside it made: `f.gz` (any suffix: `-S`), or, decompressing, `f` of `f.gz`.
  const decompress = base.startsWith('un') || args.some((a) => /^-[A-Za-z0-9]*d|^--(?:decompress|uncompress)/.test(a.text));
  const made = files.map((f) => (decompress ? { ...f, text: f.text.replace(/\.[^./]*$/, '') } : { ...f, text: `${f.text}*`, glob: true }));
  return { files: [...output, ...files.map((f) => ({ ...f, changes: true })), ...made], joined: [] };
}

/** zstd's `-o f` / `--output=f`: the file it writes. */
function outputs(args: readonly WrittenWord[]): WrittenWord[] {
  return args.flatMap((a, i) => (a.text === '-o' && args[i + 1] !== undefined ? [args[i + 1]!] : a.text.startsWith('--output=') ? [{ ...a, text: a.text.slice('--output='.length) }] : []));
}

/** `zip [opts] archive files`: the archive (and it with `.zip` added); with `-m` the files added, removed. */
function zipWrites(args: readonly WrittenWord[]): Pick<CommandWrites, 'files' | 'joined'> {
  const { operands } = operandsOf(args, ZIP_VALUED, ['temp-path', 'suffixes', 'output-file', 'exclude', 'include']);
  const [archive, ...added] = operands;
  if (archive === undefined) return { files: [], joined: [] };
  const moved = args.some((a) => /^-[A-Za-z0-9]*m|^--move/.test(a.text)) ? added.map((a) => ({ ...a, changes: true })) : [];
  const out = args.flatMap((a, i) => (/^-(?:O|-output-file)$/.test(a.text) && args[i + 1] !== undefined ? [args[i + 1]!] : []));
  return { files: [archive, { ...archive, text: `${archive.text}.zip` }, ...out, ...moved], joined: [] };
}

/** sqlite3's database operand: its first word that is no option or option's value (`:memory:` and `''` are none on disk). */
function sqliteFile(args: readonly WrittenWord[]): WrittenWord[] {
  for (let i = 0; i < args.length; i += 1) {
    const text = args[i]!.text;
    if (text === '--') return fileOnDisk(args[i + 1]);
    if (!text.startsWith('-')) return fileOnDisk(args[i]);
    if (SQLITE_VALUED.has(text.replace(/^--?/, ''))) i += /^--?(?:lookaside|pagecache|heap)$/.test(text) ? 2 : 1;
  }
  return [];
}

/** `word` as a file sqlite3 opens, unless none is (`:memory:`, an empty name: a temporary database). */
function fileOnDisk(word: WrittenWord | undefined): WrittenWord[] {
  return word === undefined || word.text === '' || word.text === ':memory:' ? [] : [word];
}
