/**
 * GNU parallel's options (and sem's: `parallel --semaphore`) read as its Getopt::Long does
 * ("bundling", "require_order", names as in parallel 20221122): where its command starts,
 * which words are its input sources (`::: a b`), and the replacement strings its options
 * define (`-I R`). An option it does not know, or one that runs code of its own (`--rpl`,
 * `--ssh cmd`, `--filter`), leaves the line unreadable.
 *
 * @module
 */
import { longOptionName } from './option-values.js';
import { quoted } from '../quoted.js';

/** Long names taking a value (`--jobs 4`, `--jobs=4`). */
const VALUED = new Set(('arg-file-sep argfilesep arg-file argfile arg-sep argsep basefile bf basenameextensionreplace bner basenamereplace bnr bin ' +
  'block-size blocksize block block-timeout blocktimeout bt col-sep colsep ctag-string ctagstring debug delay delimiter dirnamereplace dnr env ' +
  'extensionreplace er group-by groupby halt-on-error haltonerror halt header joblog jl jobs linkinputsource xapplyinputsource load max-args ' +
  'maxargs max-chars maxchars max-procs maxprocs max-replace-args maxreplaceargs memfree memsuspend min-version minversion nice process-slot-var ' +
  'processslotvar recend recstart results result res retries return rsync-opts rsyncopts semaphore-name semaphorename id semaphore-timeout ' +
  'semaphoretimeout st seqreplace shard slotreplace sql-and-worker sqlandworker sql-master sqlmaster sql-worker sqlworker sql ssh-delay sshdelay ' +
  'sshloginfile slf sshlogin tag-string tagstring template tmpl term-seq termseq timeout tmpdir tempdir total-jobs totaljobs total transfer-file ' +
  'transferfile transfer-files transferfiles tf trc trim work-dir workdir wd').split(' '));
/** Long names taking a value that run code the rules cannot read: perl (`--rpl`, `--filter`), a command (`--ssh`, `--limit`), an options file (`--profile`). */
const RUNNING = new Set(('rpl parens filter ssh limit profile use-compress-program compress-program usecompressprogram compressprogram ' +
  'use-decompress-program decompress-program usedecompressprogram decompressprogram shell-completion shellcompletion').split(' '));
/** Long names whose value is optional: a string (`--replace R`, taken when the next word is no option), a number (`--max-lines 2`). */
const OPTIONAL: Readonly<Record<string, 'string' | 'number'>> = { replace: 'string', eof: 'string', 'max-lines': 'number', maxlines: 'number' };
/** Long names of flags. */
const FLAGS = new Set(('T X Y bar bg bibtex citation bug cat cleanup color-failed colour-failed colorfailed colourfailed color-fail colour-fail ' +
  'colorfail colourfail cf color colour compress controlmaster csv ctag ctrl-c ctrlc dry-run dryrun dr embed eta exit fg fifo filter-hosts ' +
  'filterhosts filter-host g gnu group help hgrp hostgrp hostgroup hostgroups interactive keep-order keeporder latest-line latestline ll ' +
  'line-buffer line-buffered linebuffer linebuffered lb link xapply m max-line-length-allowed maxlinelengthallowed no-ctrl-c no-ctrlc noctrlc ' +
  'no-keep-order nokeeporder nok no-k no-run-if-empty norunifempty nonall noswap null number-of-cores numberofcores number-of-cpus ' +
  'numberofcpus number-of-sockets numberofsockets number-of-threads numberofthreads onall open-tty output-as-files outputasfiles files ' +
  'pipe-part pipepart pipe spreadstdin plain plus progress quote recordenv record-env regexp regex remove-rec-sep removerecsep rrs resume ' +
  'resume-failed resumefailed retry-failed retryfailed round-robin roundrobin round semaphore session shebang hashbang shell-quote shellquote ' +
  'shell_quote show-limits showlimits shuf silent skip-first-line skipfirstline tag tee tmux tmux-pane tmuxpane tollef transfer tty ungroup ' +
  'use-cores-instead-of-threads usecoresinsteadofthreads use-cpus-instead-of-cores usecpusinsteadofcores use-sockets-instead-of-threads ' +
  'usesocketsinsteadofthreads v verbose version wait will-cite willcite nn nonotice no-notice xargs').split(' '));
/** Single letters: flags, those taking a value (`-j 4`, `-j4`), and `-i`, `-e` (an optional string) and `-l` (an optional number). */
const SHORT_FLAGS = 'XYTgmvkuq0MoxrptVh';
const SHORT_VALUED: Readonly<Record<string, string>> = {
  B: 'basefile', E: 'eof', H: 'H', I: 'I', L: 'L', U: 'extensionreplace', W: 'work-dir', D: 'debug', a: 'arg-file', C: 'col-sep', d: 'delimiter',
  j: 'jobs', J: 'profile', n: 'max-args', N: 'max-replace-args', P: 'max-procs', s: 'max-chars', S: 'sshlogin',
};
const SHORT_OPTIONAL: Readonly<Record<string, string>> = { i: 'replace', e: 'eof', l: 'max-lines' };
/** Options whose value is a replacement string the command holds (`-I R`, `--er R`). */
const REPLACING = new Set(['I', 'replace', 'extensionreplace', 'er', 'basenamereplace', 'bnr', 'dirnamereplace', 'dnr', 'basenameextensionreplace', 'bner', 'seqreplace', 'slotreplace']);

/** How GNU parallel runs its command. */
export interface ParallelRun {
  /** Index in its arguments where its command starts. */
  readonly command: number;
  /** The words that start its input sources (`:::`, `::::`, `:::+`, `::::+`, or `--arg-sep` / `--arg-file-sep`'s). */
  readonly separators: readonly string[];
  /** The replacement strings its options define. */
  readonly replacements: readonly string[];
}

/** Reads parallel's options; a string (why) where one is not understood or runs code the rules cannot read. */
export function readParallel(args: readonly string[]): ParallelRun | string {
  const replacements: string[] = [];
  const separators = [':::', '::::', ':::+', '::::+'];
  const set = (name: string, value: string | undefined): string | undefined => {
    if (RUNNING.has(name)) return `GNU parallel's ${quoted(`--${name}`)}, which runs code the bash rules cannot read`;
    if (REPLACING.has(name)) replacements.push(value === undefined || value === '' ? '{}' : value);
    if (value !== undefined && /^arg-?(?:file-?)?sep$/.test(name)) separators.push(value, `${value}+`);
    return undefined;
  };
  let i = 0;
  for (; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') return { command: i + 1, separators, replacements };
    if (!arg.startsWith('-') || arg === '-') break;
    const unknown = `GNU parallel with an option not understood (${quoted(arg)})`;
    if (arg.startsWith('--')) {
      const at = arg.indexOf('=');
      const name = longName(at < 0 ? arg.slice(2) : arg.slice(2, at));
      if (name === undefined) return unknown;
      const optional = OPTIONAL[name];
      let value = at < 0 ? undefined : arg.slice(at + 1);
      if (value === undefined && (VALUED.has(name) || RUNNING.has(name))) value = args[(i += 1)];
      else if (value === undefined && optional !== undefined && takesNext(args[i + 1], optional)) value = args[(i += 1)];
      else if (value !== undefined && FLAGS.has(name)) return unknown;
      const why = set(name, value);
      if (why !== undefined) return why;
      continue;
    }
    for (let at = 1; at < arg.length; at += 1) {
      const letter = arg[at]!;
      if (SHORT_FLAGS.includes(letter)) continue;
      const valued = SHORT_VALUED[letter];
      const optional = SHORT_OPTIONAL[letter];
      if (valued === undefined && optional === undefined) return unknown;
      let value = at + 1 < arg.length ? arg.slice(at + 1) : undefined;
      if (value === undefined && valued !== undefined) value = args[(i += 1)];
      else if (value === undefined && takesNext(args[i + 1], OPTIONAL[optional!]!)) value = args[(i += 1)];
      const why = set(valued ?? optional!, value);
      if (why !== undefined) return why;
      break;
    }
  }
  return { command: i, separators, replacements };
}

/** The option a long name given on the line is (any letter case, or a prefix of only one name), or `undefined`. */
function longName(given: string): string | undefined {
  return longOptionName(given.toLowerCase(), [...VALUED, ...RUNNING, ...Object.keys(OPTIONAL), ...FLAGS]);
}

/** Whether Getopt::Long takes `next` as an optional value: a word that is no option (for a number: a number). */
function takesNext(next: string | undefined, kind: 'string' | 'number'): boolean {
  if (next === undefined) return false;
  return kind === 'number' ? /^[-+]?\d*\.?\d+$/.test(next) : !next.startsWith('-');
}
