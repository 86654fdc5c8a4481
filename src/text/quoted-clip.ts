import { wireJson } from './wire-json.js';

// Room for the cut's marker inside the quotes: " [... N characters cut ...] " is 27 plus N's
// digits, as in `clipMiddle`.
const MARKER_ROOM = 40;

/** The length `char` (one character, or one lone surrogate) takes inside a `wireJson` string. */
function escapedLength(char: string): number {
  return (wireJson(char) as string).length - 2;
}

/** How many UTF-16 units of `text`, from its start, whole characters, fit in `room` characters once escaped. */
function headUnits(text: string, room: number): number {
  let used = 0;
  let end = 0;
  while (end < text.length) {
    const size = text.codePointAt(end)! > 0xffff ? 2 : 1;
    used += escapedLength(text.slice(end, end + size));
    if (used > room) break;
    end += size;
  }
  return end;
}

/** How many UTF-16 units of `text`, from its end, whole characters, fit in `room` characters once escaped. */
function tailUnits(text: string, room: number): number {
  let used = 0;
  let start = text.length;
  while (start > 0) {
    const low = text.charCodeAt(start - 1);
    const pair = start > 1 && low >= 0xdc00 && low <= 0xdfff && text.charCodeAt(start - 2) >= 0xd800 && text.charCodeAt(start - 2) <= 0xdbff;
    const size = pair ? 2 : 1;
    used += escapedLength(text.slice(start - size, start));
    if (used > room) break;
    start -= size;
  }
  return text.length - start;
}

/**
 * `text` JSON-quoted as `wireJson` quotes it (controls, line breaks of every convention and
 * format characters escaped), at most `max` characters long quotes and escapes included (`max`
 * of 80 or more). The bound is on what is shown: a control escapes to six characters
 * (`\u0001`), so a text cut first and quoted after could come out six times the length asked.
 * When it does not fit, its start and its end are kept with a marker between them saying how
 * many characters of `text` were cut, inside the quotes: the result is still one JSON string,
 * no escape is split, and `JSON.parse` of it gives the start, the marker and the end.
 *
 * @example
 * ```ts
 * quotedClip('a\nb', 80); // '"a\\nb"'
 * quotedClip('\u0001'.repeat(1_000), 100).length <= 100; // true: '"\\u0001... [... 986 characters cut ...] ...\\u0001"'
 * ```
 */
export function quotedClip(text: string, max: number): string {
  const whole = wireJson(text) as string;
  if (whole.length <= max) return whole;
  // Walks at most `max` characters from each end, so a megabyte of text costs no more than a short one.
  const room = Math.floor((max - 2 - MARKER_ROOM) / 2);
  const head = text.slice(0, headUnits(text, room));
  const tail = text.slice(text.length - tailUnits(text, room));
  return wireJson(`${head} [... ${text.length - head.length - tail.length} characters cut ...] ${tail}`) as string;
}
