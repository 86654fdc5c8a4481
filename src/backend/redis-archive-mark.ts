/**
 * The archive mark of a Redis session (`<prefix>:archived:<id>`): how many of the session's
 * messages, from the first, its archive already accounts for (the messages a compaction
 * wrote). The store writes it as the count alone, in digits, and never past the session's
 * length. A mark of any other form (`-2`, `0x1`, `1e2`, `' 1'`, `''`) or past the length
 * (`1000`) was not written by the store: read as a number, it would hide messages from the
 * transcript, and the next compaction would drop them unarchived. So both the compaction
 * script and `loadArchive` refuse it, with the same message (one definition, below, for the
 * script too), and nothing is changed: the user deletes the key, and loses nothing.
 *
 * @module
 */
import { shownKey } from './bad-data-warning.js';
import { RedisBackendError } from './redis-backend-error.js';

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
 * How many of a session's `length` messages its archive accounts for, by its `mark` stored
 * under `key`.
 *
 * @throws RedisBackendError naming the key and what to do, for a mark `isArchiveMark` refuses.
 * @internal
 */
export function archivedCount(key: string, mark: string | null, length: number): number {
  if (!isArchiveMark(mark, length)) throw new RedisBackendError(refusal({ key: shownKey(key), mark: shownMark(mark ?? ''), count: String(length) }));
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
 * The check of `isArchiveMark` in Lua, for the compaction script: sets `live` to the count
 * the mark of `KEYS[3]` holds for the session `KEYS[1]`, or returns the refusal (the message
 * of `archivedCount`, built from the same words) before anything is written. A `KEYS[1]` or
 * `KEYS[3]` of another type fails it at its `LLEN` or `GET`, before anything is written too.
 *
 * @internal
 */
export const CHECK_ARCHIVE_MARK = `
local mark = redis.call('GET', KEYS[3])
local count = redis.call('LLEN', KEYS[1])
if mark and not ((mark == '0' or string.match(mark, '^[1-9]%d*$')) and tonumber(mark) <= count) then
  local shown = 'a longer value, or one of other characters'
  if #mark <= ${SHOWN_MARK_CHARS} and string.match(mark, '^[%w%p ]*$') then shown = '"' .. mark .. '"' end
  -- The key with its control characters marked as shownKey marks them (the id is the caller's own, not planted).
  local key = (string.gsub(KEYS[3], '%c', function(c) return string.format('<U+%04X>', string.byte(c)) end))
  return redis.error_reply(${luaRefusal()})
end
local live = tonumber(mark or '0')
`;

/** The refusal as a Lua expression: its words as string literals (ASCII, so JSON's quoting is Lua's), its places as the script's values. */
function luaRefusal(): string {
  const places = { key: 'key', mark: 'shown', count: 'count' } as const;
  return REFUSAL.map((part) => (typeof part === 'string' ? JSON.stringify(part) : places[part.slot])).join(' .. ');
}
