/**
 * Where a command starts in a statement being read: only there is `[[` the reserved word
 * that opens a test, whose `&&`, `||`, `(`, `<` and `>` are words (`echo [[ a || rm x ]]`
 * runs rm).
 *
 * @module
 */

/** Reserved words after which a command starts (`if [[`, `! [[`, `{ [[`, `time [[`). */
const BEFORE_COMMAND = new Set(['if', 'then', 'elif', 'else', 'do', 'while', 'until', '!', '{', 'time']);
/** The end of a function's head (`f()`, `function f ()`), after which its body, a command, starts; a name holds no `=` (`x=()` is an array). */
const FUNCTION_HEAD = /(?:^|[ \t\n;&|(])(?:(?:function[ \t\n]+)?[^ \t\n;&|()<>'"\\$`=]+[ \t\n]*\([ \t\n]*\)|function[ \t\n]+[^ \t\n;&|()<>'"\\$`=]+)$/;

/** How far back a function's head is looked for: a longer one (a name of hundreds of letters) counts as none, which judges more. */
const HEAD_REACH = 256;
const MAX_STEPS = 64;

/**
 * Whether a word after `text` (a statement so far, quotes kept) is where a command starts:
 * at the start, after `;`, `&`, `|` or a subshell's `(`, after a reserved word that is itself
 * there (`time -p` too), after a function's head (`f() [[`, `function f {`). Narrower than
 * bash (not after a `case` pattern's `)`): a wrong "no" only judges more words as commands. A
 * quoted or escaped word is no reserved word, and `x=(` no subshell.
 */
export function atCommandStart(text: string): boolean {
  let rest = trimBlanks(text);
  // Each step costs a pass over the statement: past a few dozen reserved words (`time time ... [[`) the answer is "no".
  for (let steps = 0; steps < MAX_STEPS; steps += 1) {
    if (rest === '') return true;
    const last = rest[rest.length - 1]!;
    const before = rest.slice(0, -1);
    // Looked for in the last characters only: each word stripped would cost a pass over the statement.
    const tail = rest.slice(-HEAD_REACH);
    const head = FUNCTION_HEAD.exec(tail);
    if (head !== null) {
      rest = rest.slice(0, rest.length - tail.length + head.index + (/^[ \t\n;&|(]/.test(head[0]) ? 1 : 0));
      rest = trimBlanks(rest);
      continue;
    }
    if (';&|('.includes(last)) {
      if (/(?:^|[^\\])(?:\\\\)*\\$/.test(before)) return false; // escaped: part of a word
      if (last === '&' && /[<>]$/.test(before)) return false; // `>&`: a target follows
      if (last !== '(' && /;$/.test(before)) return false; // `;;`, `;&`: a case pattern follows
      if (last !== '(') return true;
      if (before !== '' && !/[ \t\n;&|(]$/.test(before)) return false; // `x=(`: an array's words
      rest = trimBlanks(before);
      continue;
    }
    let word = /[^ \t\n;&|()<>]*$/.exec(tail)![0];
    // `time -p [[`: the option belongs to the reserved word before it.
    if (word === '-p' && /(?:^|[ \t\n;&|(])time[ \t\n]+-p$/.test(tail)) word = 'time -p';
    if (!BEFORE_COMMAND.has(word) && word !== 'time -p') return false;
    rest = trimBlanks(rest.slice(0, -word.length));
  }
  return false;
}

/** `text` without its trailing blanks: bash's (space, tab, newline), not JavaScript's `trimEnd` (a no-break space is part of a word). */
function trimBlanks(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t' || text[end - 1] === '\n')) end -= 1;
  return text.slice(0, end);
}
