import type { JsonValue } from '../events/json.js';

/** One argument of a call waiting for approval, as a human reads it. */
export interface ApprovalArgument {
  /** The argument's name (`arguments` when the call's arguments are not an object). */
  readonly name: string;
  /** Its value whole: a string as it is, anything else as indented JSON. */
  readonly text: string;
  /** True for the argument that says what the call acts on (`command`, `path`, `url`). */
  readonly main: boolean;
}

/** The arguments that say what a call acts on, in the order one is looked for. */
const MAIN_KEYS = ['command', 'path', 'url'];

/**
 * Every argument of a call a human is asked to approve, the main one (`command`, `path` or
 * `url`) first, then the others in the order the model sent them: what is approved is all
 * of it (a `write`'s content, an MCP tool's every argument), never only its path.
 *
 * @example
 * ```ts
 * approvalArguments({ path: '.env', content: 'A=1' });
 * // [{ name: 'path', text: '.env', main: true }, { name: 'content', text: 'A=1', main: false }]
 * ```
 */
export function approvalArguments(args: JsonValue): ApprovalArgument[] {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return [{ name: 'arguments', text: asText(args), main: false }];
  const record = args as { readonly [key: string]: JsonValue };
  const main = MAIN_KEYS.find((key) => typeof record[key] === 'string' && record[key] !== '');
  const rest = Object.keys(record).filter((key) => key !== main);
  return [...(main ? [{ name: main, text: record[main] as string, main: true }] : []), ...rest.map((name) => ({ name, text: asText(record[name]!), main: false }))];
}

/** A long text cut for a first look: how much is shown and how much there is. */
export interface FoldedText {
  /** The first lines (each cut at the line limit), or the whole text when it is short. */
  readonly shown: string;
  /** True when `shown` is not the whole text. */
  readonly folded: boolean;
  /** Lines in the whole text. */
  readonly lines: number;
  /** Characters in the whole text. */
  readonly chars: number;
}

/**
 * The start of a long text: at most `maxLines` lines, each at most `maxLineChars`
 * characters; `folded` says whether anything was left out (then show a way to see all).
 *
 * @example
 * ```ts
 * foldText('a\nb\nc', 2); // { shown: 'a\nb', folded: true, lines: 3, chars: 5 }
 * ```
 */
export function foldText(text: string, maxLines = 12, maxLineChars = 300): FoldedText {
  const all = text.split('\n');
  const kept = all.slice(0, maxLines).map((line) => (line.length > maxLineChars ? `${line.slice(0, maxLineChars)}…` : line));
  const folded = all.length > maxLines || all.some((line, i) => i < maxLines && line.length > maxLineChars);
  return { shown: kept.join('\n'), folded, lines: all.length, chars: text.length };
}

function asText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
