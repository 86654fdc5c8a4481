/**
 * The output files of tools that write one named by an option or an operand: `xxd -r in out`,
 * `openssl ... -out f` (and `-keyout`), `iconv -o f`, `gpg -o f`, `split in prefix` and
 * `csplit -f prefix` (files named by the prefix and a suffix), `script f` (its typescript),
 * `tar -c -f f` (the archive it makes or adds to), what ssh writes (see `ssh-writes`), and
 * less's log file (`-o f`, `-O f`, `--log-file=f`, also in `$LESS`).
 *
 * @module
 */
import { lessEnvironment } from '../less-environment.js';
import { operandsOf, optionValues } from '../option-values.js';
import { sshWrites } from './ssh-writes.js';

/** A word of a command, as the shell parser gave it. */
interface Word {
  readonly text: string;
  readonly glob: boolean;
}

/** The programs {@link toolWrites} reads. */
export const TOOL_WRITERS: ReadonlySet<string> = new Set(['xxd', 'openssl', 'iconv', 'gpg', 'gpg2', 'split', 'csplit', 'script', 'tar', 'bsdtar', 'ssh', 'less']);

/** less's letters taking a value (the rest of the word, else the next one). */
const LESS_VALUED = 'bhjkoOpPtTxyz#D';
/** Options of `split` taking a value. */
const SPLIT_SHORT = 'abCln';
const SPLIT_LONG = ['bytes', 'line-bytes', 'lines', 'number', 'additional-suffix', 'suffix-length', 'separator', 'filter'];
/** Options of `script` taking a value. */
const SCRIPT_SHORT = 'cEIOBTm';
const SCRIPT_LONG = ['command', 'echo', 'log-in', 'log-out', 'log-io', 'log-timing', 'logging-format', 'output-limit'];

/** The files `base` with `args` writes (see the module); none for a program it does not know. */
export function toolWrites<W extends Word>(base: string, args: readonly W[]): W[] {
  switch (base) {
    case 'xxd': {
      // Its second operand is the output: with `-r` a file of any content.
      const { operands } = operandsOf(args, 'cglosn', ['cols', 'groupsize', 'len', 'seek', 'name']);
      return operands.slice(1, 2).filter((a) => a.text !== '-');
    }
    case 'openssl':
      return values(args, ['-out', '-keyout', '-signature', '-sigout']);
    case 'iconv':
      return optionValues(args, 'o', ['output']);
    case 'gpg':
    case 'gpg2':
      return optionValues(args, 'o', ['output']).filter((a) => a.text !== '-');
    case 'split': {
      const { operands } = operandsOf(args, SPLIT_SHORT, SPLIT_LONG);
      return prefixed(operands[1] ?? { ...(args[0] ?? { glob: false }), text: 'x' } as W);
    }
    case 'csplit': {
      const [prefix] = optionValues(args, 'f', ['prefix']);
      return prefixed(prefix ?? ({ ...(args[0] ?? { glob: false }), text: 'xx' } as W));
    }
    case 'script': {
      const { operands } = operandsOf(args, SCRIPT_SHORT, SCRIPT_LONG);
      return [operands[0] ?? ({ ...(args[0] ?? { glob: false }), text: 'typescript' } as W)];
    }
    case 'ssh':
      return sshWrites(args);
    case 'less':
      // The log of its input, also in a cluster (`-Ro f`) and by an abbreviated name (`--log=f`, `--LOG=f`).
      return [...lessLogs(args), ...optionValues(args, '', ['log-file', 'LOG-FILE'])];
    default:
      return tarCreates(args) ? [...optionValues(args, 'f', ['file']), ...oldFormFile(args)].filter((a) => a.text !== '-') : [];
  }
}

/**
 * The log files less writes for options in its environment (`LESS='-o f'`, `export LESS=-Of`,
 * `LESS=Rof`: see `less-environment`): less reads `$LESS` (as more, `$MORE`) as options before
 * its own, so every command that pages through less on the line (less itself, `git log`, `man`) may write them.
 *
 * @param assignments - `NAME=value` words: in front of a command, alone, or given to `export`.
 */
export function lessVariableWrites(assignments: readonly string[]): { text: string; glob: boolean }[] {
  const values = assignments.flatMap((a) => /^(?:LESS|MORE)\+?=(.*)$/s.exec(a)?.[1] ?? []);
  return values.flatMap((value) => lessEnvironment(value).logs.map((text) => ({ text, glob: false })));
}

/** less's `-o f` / `-O f`, also in a cluster (`-Ro f`, `-Of`); a cluster ends at another letter taking a value (`-pfoo` searches for `foo`). */
function lessLogs<W extends Word>(args: readonly W[]): W[] {
  const out: W[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const text = args[i]!.text;
    if (text === '--') break;
    if (!/^-[^-]/.test(text)) continue;
    const at = [...text.slice(1)].findIndex((c) => LESS_VALUED.includes(c)) + 1;
    if (at === 0) continue;
    const value = at < text.length - 1 ? { ...args[i]!, text: text.slice(at + 1) } : args[(i += 1)];
    if (value !== undefined && (text[at] === 'o' || text[at] === 'O')) out.push(value);
  }
  return out;
}

/** The files a prefix names: itself followed by any suffix, as a glob. */
function prefixed<W extends Word>(prefix: W): W[] {
  return [{ ...prefix, text: `${prefix.text}*`, glob: true }];
}

/** The values of single-dash long options (`openssl -out f`, `-out=f` is no form openssl reads but counts). */
function values<W extends Word>(args: readonly W[], names: readonly string[]): W[] {
  const out: W[] = [];
  args.forEach((arg, i) => {
    const [name = '', value] = arg.text.split(/=(.*)/s);
    if (!names.includes(name.replace(/^--/, '-'))) return;
    const taken = value !== undefined ? { ...arg, text: value } : args[i + 1];
    if (taken !== undefined) out.push(taken);
  });
  return out;
}

/** The archive of tar's old form (`tar cf a.tar x`): the values of its first word's letters follow it in order. */
function oldFormFile<W extends Word>(args: readonly W[]): W[] {
  const first = args[0]?.text ?? '';
  if (first.startsWith('-') || !first.includes('f')) return [];
  const before = [...first.slice(0, first.indexOf('f'))].filter((c) => 'bLNTXgKVC'.includes(c)).length;
  const file = args[1 + before];
  return file === undefined ? [] : [file];
}

/** Whether tar makes or adds to an archive: `-c`, `-r`, `-u`, `-A` (in a cluster, or the old form's first word) or their long names. */
function tarCreates(args: readonly { readonly text: string }[]): boolean {
  return args.some((a, i) => {
    if (/^--(?:cr|ap|up|cat)/.test(a.text)) return true;
    const letters = a.text.startsWith('--') ? '' : a.text.startsWith('-') ? a.text.slice(1) : i === 0 ? a.text : '';
    return /[cruA]/.test(letters);
  });
}
