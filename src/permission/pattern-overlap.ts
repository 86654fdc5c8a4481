/**
 * Whether a rule's command pattern could match a command whose arguments are only known
 * when it runs. `git pu${x}sh` is `git push` when `x` is unset, and `git pus?` is when a
 * file named `push` is there: matched as written, neither meets `git push*`. Such a command
 * is read as a pattern of its own, its shape (`git pu*sh`, `git pus?`), and a deny or ask
 * rule holds when some text fits both its pattern and the shape.
 *
 * @module
 */
import { ANY, commandPatternPieces, matchesOne, matchesText, ONE, type Piece } from './command-pattern.js';

/** How many (pattern position, shape position) pairs one check may visit; past it, the answer is yes (the safe side: a deny or ask holds). */
const MAX_STATES = 1_000_000;

/**
 * Whether some text fits both `pattern` (a rule's, as `compileCommandPattern` reads it) and
 * `shape` (a command with its run-time parts as `*`, `?` or `[...]`, all else escaped). In
 * doubt yes: a pattern only picomatch reads, or a check too large to make.
 *
 * @example
 * ```ts
 * patternsOverlap('git push*', 'git pu*sh'); // true
 * patternsOverlap('rm *', 'echo *'); // false
 * ```
 */
export function patternsOverlap(pattern: string, shape: string): boolean {
  let rule = rules.get(pattern);
  if (rule === undefined) rules.set(pattern, (rule = readRule(pattern)));
  if (rule === null) return true;
  // A shape with no wildcard (nor escape) is one text: matched in linear time, after a look for
  // the pattern's literal runs (a line of thousands of operands, each checked against dozens of
  // patterns, took seconds through the walk below).
  if (!/^!|[\\*?[{(]/.test(shape)) return rule.some(({ pieces, runs }) => runs.every((run) => shape.includes(run)) && matchesText(pieces, shape));
  const key = `${pattern}\u0000${shape}`;
  const known = answers.get(key);
  if (known !== undefined) return known;
  if (answers.size >= MAX_ANSWERS) answers.clear();
  const answer = walk(rule, shape);
  answers.set(key, answer);
  return answer;
}

/** One alternative of a rule's pattern: its pieces, and the literal texts any match holds. */
interface Alternative {
  readonly pieces: Piece[];
  readonly runs: readonly string[];
}

/** Rules' patterns read (`null`: only picomatch reads it); rules are few, so this stays small. */
const rules = new Map<string, Alternative[] | null>();
/** Answers of the walk, by pattern and shape (a line repeats its words); cleared when full, so it stays small. */
const answers = new Map<string, boolean>();
const MAX_ANSWERS = 4096;

function readRule(pattern: string): Alternative[] | null {
  const alternatives = commandPatternPieces(pattern);
  if (alternatives === undefined) return null;
  return alternatives.map((pieces) => {
    const runs: string[] = [];
    let run = '';
    for (const piece of [...pieces, ANY]) {
      if (typeof piece === 'string') run += piece;
      else if (run !== '') [runs[runs.length], run] = [run, ''];
    }
    return { pieces, runs };
  });
}

function walk(rule: readonly Alternative[], shape: string): boolean {
  const shapes = commandPatternPieces(shape);
  if (shapes === undefined) return true;
  // The whole check is bounded, not each pair: a pattern may have 256 alternatives.
  let states = 0;
  for (const { pieces: a } of rule) for (const b of shapes) states += (a.length + 1) * (b.length + 1);
  if (states > MAX_STATES) return true;
  return rule.some(({ pieces: a }) => shapes.some((b) => overlap(a, b)));
}

/** A walk of the product of the two patterns: from the starts, can both reach their ends on the same text? */
function overlap(a: readonly Piece[], b: readonly Piece[]): boolean {
  const width = b.length + 1;
  const seen = new Uint8Array((a.length + 1) * width);
  const todo: number[] = [0];
  seen[0] = 1;
  const visit = (i: number, j: number): void => {
    const state = i * width + j;
    if (seen[state] === 0) {
      seen[state] = 1;
      todo.push(state);
    }
  };
  while (todo.length > 0) {
    const state = todo.pop()!;
    const i = Math.floor(state / width);
    const j = state % width;
    if (i === a.length && j === b.length) return true;
    // A `*` may match no text.
    if (a[i] === ANY) visit(i + 1, j);
    if (b[j] === ANY) visit(i, j + 1);
    // Or both take one character that fits each: a `*` stays where it is, any other piece moves on.
    const pa = a[i];
    const pb = b[j];
    if (pa === undefined || pb === undefined || !sharesCharacter(pa, pb)) continue;
    visit(pa === ANY ? i : i + 1, pb === ANY ? j : j + 1);
  }
  return false;
}

/** Whether one character fits both pieces. */
function sharesCharacter(a: Piece, b: Piece): boolean {
  if (a === ANY || a === ONE || b === ANY || b === ONE) return true;
  if (typeof a === 'string') return matchesOne(b, a.charCodeAt(0));
  if (typeof b === 'string') return matchesOne(a, b.charCodeAt(0));
  // Two classes: where both hold, the set is made of ranges that start at one of these points.
  const points = [0, 0xffff];
  for (const [from, to] of [...a.ranges, ...b.ranges]) points.push(from, to, from - 1, to + 1);
  return points.some((code) => code >= 0 && code <= 0xffff && matchesOne(a, code) && matchesOne(b, code));
}
