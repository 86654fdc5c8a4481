/**
 * Programs that edit their file operands in place: `perl -i` / `-pi`, `ruby -i` (their
 * scripts' own writes otherwise stay with the bash rules, which cannot read them), and the
 * vi family (`vim`, `ex`, `nvim`...), which writes the files it opens and, unless the line's
 * ex commands are plain writes and substitutions ending in a quit, reads further commands
 * from its input (no terminal there): any path (`:w src/x`).
 *
 * @module
 */

/** A word of a command, as the shell parser gave it. */
interface Word {
  readonly text: string;
  readonly glob: boolean;
}

/** How an interpreter's option letters read: the one for in place, those giving program text, those taking a value attached or next, attached only. */
interface Letters {
  readonly inPlace: string;
  readonly program: string;
  readonly valued: string;
  readonly attached: string;
}

const INTERPRETERS: Readonly<Record<string, Letters>> = {
  perl: { inPlace: 'i', program: 'eE', valued: 'IMm', attached: '0lFCdDxV' },
  ruby: { inPlace: 'i', program: 'e', valued: 'IrCE', attached: '0FxKWT' },
};
const VIS = new Set(['vim', 'vi', 'nvim', 'ex', 'view', 'vimdiff', 'gvim', 'rvim', 'nvi', 'elvis', 'vim.tiny', 'vim.basic']);
/** vi's options taking the next word (`-s` is a script to type only outside ex mode). */
const VI_VALUED = new Set(['-c', '-S', '-u', '-U', '-T', '-w', '-W', '-i', '-t', '-q', '--cmd', '--startuptime', '--listen', '-s']);
/** ex commands that write only the files open, or quit. */
const PLAIN = /^:?\s*(?:w|write|wq|x|xit|wa|wall|wqa|wqall|xa|xall|up|update|q|quit|qa|qall|exit)!?\s*$/;
/** A substitution whose replacement runs no expression (`\=`). */
const SUBSTITUTE = /^:?\s*[%.$\d,]*\s*s(?:ubstitute)?([/#@,])(?:(?!\\=)[^|])*$/;
const QUITS = /^:?\s*(?:wq|x|xit|wqa|wqall|xa|xall|q|quit|qa|qall|exit)!?\s*$/;

/** The programs {@link inPlaceWrites} reads. */
export const IN_PLACE_EDITORS: ReadonlySet<string> = new Set([...Object.keys(INTERPRETERS), ...VIS]);

/** What `base` (one of {@link IN_PLACE_EDITORS}) with `args` writes: its operands edited in place, and why it may write any path. */
export function inPlaceWrites<W extends Word>(base: string, args: readonly W[]): { files: W[]; anyPath?: string } {
  return VIS.has(base) ? viWrites(base, args) : { files: interpreterWrites(INTERPRETERS[base]!, args) };
}

/** `perl -i -pe code files`: with `-i`, its operands past the program (with no `-e`, the script is the first). */
function interpreterWrites<W extends Word>(letters: Letters, args: readonly W[]): W[] {
  let inPlace = false;
  let program = false;
  let i = 0;
  for (; i < args.length; i += 1) {
    const text = args[i]!.text;
    if (text === '--') {
      i += 1;
      break;
    }
    if (!text.startsWith('-') || text === '-') break;
    if (text.startsWith('--')) continue;
    for (let at = 1; at < text.length; at += 1) {
      const c = text[at]!;
      if (c === letters.inPlace) inPlace = true; // what follows is the backup's extension
      if (letters.program.includes(c)) program = true;
      if ((letters.program.includes(c) || letters.valued.includes(c)) && at === text.length - 1) i += 1;
      if (c === letters.inPlace || letters.program.includes(c) || letters.valued.includes(c) || letters.attached.includes(c)) break;
    }
  }
  if (!inPlace) return [];
  const operands = args.slice(i);
  return program ? operands : operands.slice(1);
}

/** The vi family: its file operands, `-w` / `-W` / `-i` / `--startuptime` files, and any path unless its commands are plain and quit. */
function viWrites<W extends Word>(base: string, args: readonly W[]): { files: W[]; anyPath?: string } {
  const files: W[] = [];
  const commands: string[] = [];
  let script = false;
  let ended = false;
  const exMode = base === 'ex' || args.some((a) => /^-[A-Za-z]*[eE]/.test(a.text) && !a.text.startsWith('--'));
  for (let i = 0; i < args.length; i += 1) {
    const { text } = args[i]!;
    const value = args[i + 1];
    if (ended || !/^[-+]/.test(text) || text === '-') files.push(args[i]!);
    else if (text === '--') ended = true;
    else if (/^--(?:version|help)$|^-h$/.test(text)) return { files: [] };
    else if (text.startsWith('+')) {
      if (!/^\+\d*$/.test(text)) commands.push(text.slice(1));
    } else if (VI_VALUED.has(text) || /^-[A-Za-z]*[cSuUTwWitqs]$/.test(text)) {
      const letter = text === '--cmd' ? 'c' : text.startsWith('--') ? text : text[text.length - 1]!;
      if (letter === 'c') commands.push(value?.text ?? '');
      else if ('wWi'.includes(letter) || letter === '--startuptime') {
        if (value !== undefined && value.text !== 'NONE') files.push(value);
      } else if (letter === 'S' || (letter === 'u' && !/^(?:NONE|NORC|DEFAULTS)$/.test(value?.text ?? '')) || (letter === 's' && !exMode)) script = true;
      if (letter !== 's' || !exMode) i += 1;
    }
  }
  const last = commands[commands.length - 1];
  const plain = commands.every((c) => PLAIN.test(c) || SUBSTITUTE.test(c));
  if (script || !plain || last === undefined || !QUITS.test(last)) {
    return { files, anyPath: `${base} reading ex commands the checker cannot read (from a script or its input), which may write any path` };
  }
  return { files };
}
