/**
 * Helpers that turn model text into something safe for one terminal line: no escape
 * sequences or control characters, measured in terminal columns (CJK characters take two).
 *
 * @module
 */

// CSI and OSC sequences a model (or a tool's output) might carry; they would move the cursor
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Removes escape sequences and control characters, keeping line breaks and tabs.
 *
 * @example
 * ```ts
 * stripControls('\u001b[31mred\u001b[0m\n'); // 'red\n'
 * ```
 */
export function stripControls(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '');
}

/**
 * Flattens text to one line: controls removed, every run of whitespace made one space.
 *
 * @example
 * ```ts
 * oneLine('a\n\n  b'); // 'a b'
 * ```
 */
export function oneLine(text: string): string {
  return stripControls(text).replace(/\s+/g, ' ');
}

/**
 * The last `max` characters of the one-line form of `text`, without leading space.
 *
 * @example
 * ```ts
 * tail('ab\ncd', 3); // 'cd' (the cut began at the space, which is dropped)
 * ```
 */
export function tail(text: string, max: number): string {
  const chars = [...oneLine(text)];
  return chars.slice(Math.max(0, chars.length - max)).join('').trimStart();
}

/**
 * Terminal columns of one character: 2 for East Asian wide and emoji ranges, 0 for
 * combining marks and zero-width characters, otherwise 1.
 *
 * @example
 * ```ts
 * charWidth('中'); // 2
 * ```
 */
export function charWidth(char: string): number {
  const cp = char.codePointAt(0) ?? 0;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  const wide =
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd);
  return wide ? 2 : 1;
}

/**
 * Terminal columns of a string without escape sequences.
 *
 * @example
 * ```ts
 * textWidth('ab中'); // 4
 * ```
 */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/**
 * Cuts text to at most `width` columns, ending with `…` when something was cut.
 *
 * @example
 * ```ts
 * truncate('abcdef', 4); // 'abc…'
 * ```
 */
export function truncate(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}
