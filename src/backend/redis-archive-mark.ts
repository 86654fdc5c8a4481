/**
 * The archive mark of a Redis session (`<prefix>:archived:<id>`): how many of the session's
 * messages, from the first, its archive already accounts for (the messages a compaction
 * wrote). The store writes it as the count alone, in digits, and never past the session's
 * length. A mark of any other form (`-2`, `0x1`, `1e2`, `' 1'`, `''`) or past the length
 * (`1000`) was not written by the store: read as a number, it would hide messages from the
 * transcript, and the next compaction would drop them unarchived. Nor was a key of another
 * type there (a list, a hash), which `loadArchive` read as no mark while the compaction failed
 * on it. So both the compaction script and `loadArchive` refuse either, with the same message
 * (one definition, below, for the script too; the key shown by `shownKey` in both), and
 * nothing is changed: the user deletes the key, and loses nothing.
 *
 * @module
 */
import { shownKey } from './bad-data-warning.js';
import { RedisBackendError } from './redis-backend-error.js';
import { scriptRefusal } from './redis-connection.js';

/** Longest mark a refusal quotes: a planted one may be megabytes long. */
const SHOWN_MARK_CHARS = 40;

/** The refusal's words, around the places of the key, the mark as shown, and the session's length. */
type Part = string | { readonly slot: 'key' | 'mark' | 'count' };

const REFUSAL: readonly Part[] = [
  'the archive mark ',
  { slot: 'key' },
  ' holds ',
  { slot: 'mark' },
  ', which is no count of the messages its archive holds (a whole number in digits alone, from 0 to the ',
  { slot: 'count' },
  " messages of the session): it was changed, or written by something else with access to the store, and nothing of the session was changed. Delete the key (redis-cli DEL ",
  { slot: 'key' },
  "): then none of the session's messages counts as archived, so none is lost (the transcript may show the last compaction's summary beside the messages it summed up).",
];

/**
 * Whether `mark` (the key's value; `null` when there is none) is one the store writes for a
 * session of `length` messages: none (nothing archived), or a count in digits alone (no sign,
 * space, leading zero, fraction or exponent) of at most `length`.
 *
 * @internal
 */
export function isArchiveMark(mark: string | null, length: number): boolean {
  return mark === null || (/^(0|[1-9][0-9]*)$/.test(mark) && Number(mark) <= length);
}

/**
 * How many of a session's `length` messages its archive accounts for, by its mark stored
 * under `key`: `type` is the key's Redis type (`none` when there is no key), `mark` its value
 * when it is a string.
 *
 * @throws RedisBackendError naming the key and what to do, for a key of another type than a
 * string, and for a mark `isArchiveMark` refuses.
 * @internal
 */
export function archivedCount(key: string, type: string, mark: string | null, length: number): number {
  const other = type !== 'none' && type !== 'string';
  if (other || !isArchiveMark(mark, length)) {
    throw new RedisBackendError(refusal({ key: shownKey(key), mark: other ? `a ${type}` : shownMark(mark ?? ''), count: String(length) }));
  }
  return Number(mark ?? 0);
}

/** The mark as a refusal quotes it: short printable ASCII in quotes, anything else described. */
function shownMark(mark: string): string {
  return mark.length <= SHOWN_MARK_CHARS && /^[\x20-\x7e]*$/.test(mark) ? `"${mark}"` : 'a longer value, or one of other characters';
}

function refusal(values: Readonly<Record<'key' | 'mark' | 'count', string>>): string {
  return REFUSAL.map((part) => (typeof part === 'string' ? part : values[part.slot])).join('');
}

/**
 * The check of `archivedCount` in Lua, for the compaction script: sets `live` to the count
 * the mark of `KEYS[3]` holds for the session `KEYS[1]`, or refuses (the message of
 * `archivedCount`, built from the same words) before anything is written. `shownKeyOf` is the
 * Lua expression of the key as `shownKey` shows it, worked out by the caller: the one rule of
 * how a key is shown (its first 200 characters, invisible ones marked), not a second one in
 * Lua. A `KEYS[1]` of another type fails the script at its `LLEN`, before anything is written.
 *
 * @internal
 */
export function checkArchiveMark(shownKeyOf: string): string {
  return `
local count = redis.call('LLEN', KEYS[1])
local found = redis.call('TYPE', KEYS[3]).ok
local mark = false
if found == 'string' then mark = redis.call('GET', KEYS[3]) end
local shown = false
if found ~= 'none' and found ~= 'string' then
  shown = 'a ' .. found
elseif mark and not ((mark == '0' or string.match(mark, '^[1-9]%d*$')) and tonumber(mark) <= count) then
  shown = 'a longer value, or one of other characters'
  if #mark <= ${SHOWN_MARK_CHARS} and string.match(mark, '^[%w%p ]*$') then shown = '"' .. mark .. '"' end
end
if shown then
  local key = ${shownKeyOf}
  ${scriptRefusal(luaRefusal())}
end
local live = tonumber(mark or '0')
`;
}

/** The refusal as a Lua expression: its words as string literals (ASCII, so JSON's quoting is Lua's), its places as the script's values. */
function luaRefusal(): string {
  const places = { key: 'key', mark: 'shown', count: 'count' } as const;
  return REFUSAL.map((part) => (typeof part === 'string' ? JSON.stringify(part) : places[part.slot])).join(' .. ');
}
