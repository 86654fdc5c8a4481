/**
 * The words of a simple command as the shell parser gives them, and what the reading of a
 * command line asks of them: which are the command and its arguments, which files its
 * redirections write, which parts are only known when it runs.
 *
 * @module
 */
import { unbraced } from './braced-expansions.js';
import { PLACEHOLDER } from './line-reader.js';

/**
 * A word of a simple command (quotes removed; `glob`: an unquoted glob; `literal`: each `$` in it
 * is quoted text, no expansion, where that was checked; `input`: text xargs reads when it runs,
 * see {@link INPUT_ARGUMENT}; `pattern`: an unquoted class or brace expansion, which the parser
 * does not mark as a glob; `quoted`: it is never split, as each expansion in it stands in double
 * quotes or it is what xargs puts in place of its `-I` placeholder), or a redirection operator.
 */
export type Word =
  | {
      readonly kind: 'word';
      readonly text: string;
      readonly glob: boolean;
      readonly literal?: true;
      readonly input?: true;
      readonly pattern?: true;
      readonly quoted?: true;
      /** Its expansions as written where the parser's text loses their braces (`${x}m`, `"${a[@]}"`: the text says `$xm`, `$a[@]`): for the text rules match and reasons quote, see {@link writtenAs} and {@link render}; the checks read `text`. */
      readonly shown?: string;
    }
  | { readonly kind: 'redirect'; readonly op: string };
/** A word that is no redirection. */
export type TextWord = Extract<Word, { kind: 'word' }>;

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;
/** The files a command run by `xargs`, `find -exec`... gets when it runs, as a rule sees them. */
export const RUNTIME_ARGUMENT: TextWord = Object.freeze({ kind: 'word', text: '{}', glob: false });
/**
 * What xargs (parallel...) reads and appends to its command, as a rule sees it (`{}`): any text,
 * an option too (`echo -delete | xargs find .` deletes), so a word only known when it runs (see
 * {@link isDynamic}), where a file `find -exec` names ({@link RUNTIME_ARGUMENT}) is none.
 */
export const INPUT_ARGUMENT: TextWord = Object.freeze({ kind: 'word', text: '{}', glob: false, input: true });

/** The words that are the command and its arguments: leading assignments and every redirection with its target dropped. */
export function plainWords(words: readonly Word[]): TextWord[] {
  const out: TextWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.kind === 'redirect') {
      i += 1; // its target
    } else if (/^\d+$/.test(word.text) && words[i + 1]?.kind === 'redirect') {
      // `2>/dev/null`: shell-quote splits off the descriptor, which is not an argument
    } else if (out.length > 0 || word.glob || !ASSIGNMENT.test(word.text)) {
      out.push(word);
    }
  }
  return out;
}

// Redirections that open their target for writing; `>&` does unless its target is a descriptor (`2>&1`, `>&-`).
const OUTPUT_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/**
 * The files a command's redirections write: `> f`, `>> f`, `&> f`, `<> f`, `>& f`. A `>`
 * comparing in `[[ a > b ]]` or `(( a > b ))` is a word by now, no redirection.
 */
export function redirectTargets(words: readonly Word[]): TextWord[] {
  const out: TextWord[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const word = words[i]!;
    const target = words[i + 1]!;
    if (word.kind !== 'redirect' || !OUTPUT_REDIRECTS.has(word.op) || target.kind !== 'word') continue;
    if (word.op === '>&' && /^(?:\d+-?|-)$/.test(target.text)) continue;
    out.push(target);
  }
  return out;
}

/** Whether a word is one of the assignments in front of the command. */
export function isAssignment(word: Word, words: readonly Word[]): boolean {
  if (word.kind !== 'word' || word.glob || !ASSIGNMENT.test(word.text)) return false;
  const name = words.findIndex((w) => w.kind === 'word' && !w.glob && !ASSIGNMENT.test(w.text) && !/^\d+$/.test(w.text));
  return name < 0 || words.indexOf(word) < name;
}

/**
 * A word as a reason should quote it: its expansions braced as written (`${x}m`, not `$xm`,
 * which names another variable), when the word's text is still the one they were read from.
 */
export function writtenAs(word: TextWord): string {
  const shown = word.shown;
  // The text keeps the scanner's `\#` in a braced expansion (`${\#x}`), which `shown` gives as written (`${#x}`).
  const plain = (text: string): string => text.replaceAll('\\#', '#');
  return shown !== undefined && plain(unbraced(shown)) === plain(word.text) ? shown : word.text;
}

/** Whether a word is only known when the command runs: a glob, a class, a variable, a substitution, a brace expansion, what xargs reads. */
export function isDynamic(word: TextWord): boolean {
  // The parser marks `*` and `?` as globs, not a class: `r[m]` runs `rm` once a file of that name is there.
  if (word.glob || word.input === true || word.text === '' || /\[[^\]]+\]/.test(word.text)) return true;
  return word.text.includes('$') || /\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(word.text);
}

/**
 * Whether a word holds text only known when the command runs, as a program's option or text
 * (awk's program, sed's script) may: an expansion (a `$` quoted as text, `awk '{print $1}'`, is
 * none), a command substitution (the scanner leaves it as quoted text, `$(…)`), a glob, an
 * unquoted class or brace expansion (`-{delete,print}`; quoted ones are program text,
 * `awk '{print $1, $2}'`, `sed 's/[a-z]//'`), what xargs reads.
 */
export function isRunTime(word: Pick<TextWord, 'text' | 'glob' | 'literal' | 'input' | 'pattern'>): boolean {
  if (word.glob || word.input === true || word.pattern === true || word.text.includes(PLACEHOLDER)) return true;
  return word.literal !== true && word.text.includes('$');
}

/**
 * Whether a word only known when it runs (see {@link isRunTime}) may then be an option:
 * unquoted, an expansion anywhere splits (`./$x` with `x='a -delete'`), and a glob or what xargs
 * reads may start with `-`. A value of a program's own option (`find . -name "$x"`) is read as
 * that value by the program's reader, which asks {@link maySplitIntoOption} instead.
 */
export function mayBeOption(word: Pick<TextWord, 'text' | 'glob' | 'literal' | 'input' | 'pattern'>): boolean {
  return isRunTime(word) && mayBecomeOption(word.text);
}

/**
 * Whether a word where a program reads an option's value (`find . -name $x`, `awk -F $s`,
 * `sed -l$n`) may still become options: unquoted, an expansion splits into more words and a glob
 * matches several names (`x='a -delete'` deletes), which the program reads after the value. Quoted
 * (`find . -name "$x"`), it is that value only.
 */
export function maySplitIntoOption(word: Pick<TextWord, 'text' | 'glob' | 'literal' | 'input' | 'pattern' | 'quoted'>): boolean {
  return word.quoted !== true && mayBeOption(word);
}

/**
 * Whether text known only when it runs may become an option: an expansion (split or not), a glob
 * or brace expansion at its start, or one after a `-` (`-d*` matches a file named `-delete`).
 */
export function mayBecomeOption(text: string): boolean {
  return text.includes('$') || /^-?[*?[{]/.test(text) || (text.startsWith('-') && /[*?[{]/.test(text));
}

/** Whether a word is text as written: no redirection, no glob. */
export function isPlain(word: Word): word is TextWord {
  return word.kind === 'word' && !word.glob;
}

/** A word's text, or a redirection's operator. */
export function text(word: Word): string {
  return word.kind === 'word' ? word.text : word.op;
}

/**
 * Words as one command's text, as the matcher sees it: each word as written (see {@link
 * writtenAs}), so `${x}m src/a` is matched (and quoted in reasons) as that, never as `$xm src/a`,
 * which expands another variable.
 */
export function render(words: readonly Word[]): string {
  return collapse(words.map((word) => (word.kind === 'word' ? writtenAs(word) : word.op)).join(' '));
}

/** Whitespace as the matcher sees it: any run (line breaks, tabs, other spaces) is one space. */
export function collapse(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/** A program's name without its folder (`/bin/rm` is `rm`). */
export function basename(path: string): string {
  const cut = path.replace(/\/+$/, '');
  const base = cut.slice(cut.lastIndexOf('/') + 1);
  return base === '' ? path : base;
}
