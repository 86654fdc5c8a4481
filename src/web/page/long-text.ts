/**
 * Text of any length on the page, laid out only as far as a reader looks. A browser lays out
 * all the text an element holds, scrolled out of sight or not: a 4 MB argument in one `<pre>`
 * took 9 s, the page frozen. Model output, tool arguments and the server's words can be that
 * long, so past {@link SHOWN_CHARS} only the start is shown, and every character is kept in
 * a closed `<details>` ("show all"), which costs nothing until it is opened.
 *
 * @module
 */
import { clipMiddle } from '../../text/clip-middle.js';
import { visibleLines } from '../../text/visible-text.js';
import { headOf } from '../../text/whole-chars.js';
import { count } from './count.js';
import { element, show, type DomElement } from './dom.js';

/** The most characters of one text the page lays out before "show all". */
export const SHOWN_CHARS = 100_000;

/** The most characters of a label on one line (a task's description, a tool's name). */
export const LABEL_CHARS = 300;

/**
 * Shows `text` in `target` as {@link show} does; past {@link SHOWN_CHARS}, its start (`.preview`)
 * and every character behind "show all" (`details.all > .full`).
 *
 * @example
 * ```ts
 * showLong(byId('answer-text'), result.text);
 * ```
 */
export function showLong(target: DomElement, text: string): void {
  if (text.length <= SHOWN_CHARS) return show(target, text);
  const preview = element('span', 'preview');
  preview.textContent = `${headOf(text, SHOWN_CHARS)}…`;
  const all = element('details', 'all');
  const summary = element('summary', 'show-all');
  summary.textContent = `show all (${count(text.length)} characters)`;
  const full = element('span', 'full');
  full.textContent = text;
  all.append(summary, full);
  target.replaceChildren(preview, all);
  target.hidden = false;
}

/** A label kept to {@link LABEL_CHARS}: its start and end, with how much was cut between them. */
export function label(text: string): string {
  return clipMiddle(text, LABEL_CHARS);
}

/**
 * `text` as the page shows what a model, a tool or a human wrote: its line breaks kept, every
 * other invisible or misleading character marked (`visibleLines`: `<U+001B>`, `<U+202E>`).
 * Drawn with `textContent` such text runs no markup, but a bidi override would still turn
 * around what a reader sees (`\u202Eexe.txt` reads `txt.exe`) and a zero-width space hide.
 *
 * @example
 * ```ts
 * visible('ok\n\u202Etxt.exe'); // 'ok\n<U+202E>txt.exe'
 * ```
 */
export function visible(text: string): string {
  return visibleLines(text).join('\n');
}
