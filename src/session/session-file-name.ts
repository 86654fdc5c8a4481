import { createHash } from 'node:crypto';
import { assertSessionId } from './session-id.js';

/**
 * What each of a session's files adds to its stem: the only files `FileSessionStore`
 * names, so the one list to extend (the stem rule below is derived from it).
 */
export const SESSION_FILE_SUFFIXES = {
  /** The messages, one JSON line each. */
  messages: '.jsonl',
  /** The whole transcript of a compacted session. */
  archive: '.archive.jsonl',
  /** The "always" approvals. */
  grants: '.grants.jsonl',
  /** What resume needs of a task session. */
  task: '.task.json',
  /** `{"sessionId":"...","title":"...","lastActivityAt":...}`, which `list()` reads. */
  summary: '.summary.json',
} as const;

/** One of a session's files. */
export type SessionFileKind = keyof typeof SESSION_FILE_SUFFIXES;

const SUFFIXES: readonly string[] = Object.values(SESSION_FILE_SUFFIXES);

/**
 * Endings a stem used as it is may not have (`.archive`, `.grants`): where one suffix ends
 * another, a stem ending in the difference plus the shorter suffix spells another stem plus
 * the longer one ("notes.archive" + ".jsonl" is "notes" + ".archive.jsonl"). Every such
 * ending has a `.`, which the encoded stems (`~` and hex) never hold.
 */
const CLASHING_ENDINGS = SUFFIXES.flatMap((longer) => SUFFIXES.filter((s) => s !== longer && longer.endsWith(s)).map((s) => longer.slice(0, -s.length)));

/** Names Windows keeps for devices, with any extension: `con`, `nul.jsonl`, `com1.txt`... */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/;

/** The longest file name stem used as it is (leaves room for the suffixes within 255 bytes). */
const MAX_NAME = 200;

/**
 * The stem of a `FileSessionStore` session's file names: the id itself when it is plain
 * (lower case letters, digits, `_`, `-`, `.`, and not ending in `.archive` or `.grants`),
 * else `~` and its UTF-8 in hex, and for an id whose stem would pass 200 bytes `~~` and its
 * SHA-256 (which cannot be turned back: the session's summary file keeps the id). Distinct
 * ids never share a file name, whatever the suffixes, even ignoring case.
 *
 * @throws TypeError for an id that is empty or not well-formed Unicode (with a lone
 * surrogate, the hex would encode U+FFFD: the name of another id's file).
 *
 * @example
 * ```ts
 * sessionFileStem('notes'); // 'notes'
 * sessionFileStem('Notes'); // '~4e6f746573'
 * sessionFileStem('notes.archive'); // '~6e6f7465732e61726368697665' (not the archive of "notes")
 * ```
 */
export function sessionFileStem(sessionId: string): string {
  assertSessionId(sessionId);
  const safe = isPlain(sessionId) ? sessionId : `~${Buffer.from(sessionId).toString('hex')}`;
  // File names stop at 255 bytes: a long id goes by its hash ("~~" is no hex output).
  return safe.length > MAX_NAME ? `~~${createHash('sha256').update(sessionId).digest('hex')}` : safe;
}

/**
 * The name of one of a session's files (in the store's folder).
 *
 * @example
 * ```ts
 * sessionFileName('notes', 'archive'); // 'notes.archive.jsonl'
 * ```
 */
export function sessionFileName(sessionId: string, kind: SessionFileKind): string {
  return sessionFileStem(sessionId) + SESSION_FILE_SUFFIXES[kind];
}

/**
 * The stem of a session's messages file from its name, or `undefined` for any other file
 * (an archive, grants, a summary, a leftover temporary file).
 *
 * @example
 * ```ts
 * messagesFileStem('notes.jsonl'); // 'notes'
 * messagesFileStem('notes.archive.jsonl'); // undefined
 * ```
 */
export function messagesFileStem(fileName: string): string | undefined {
  const suffix = SESSION_FILE_SUFFIXES.messages;
  if (!fileName.endsWith(suffix) || fileName.length === suffix.length) return undefined;
  const stem = fileName.slice(0, -suffix.length);
  return CLASHING_ENDINGS.some((ending) => stem.endsWith(ending)) ? undefined : stem;
}

/**
 * The session id a `FileSessionStore` file stem names: the stem itself for a plain id, the
 * decoded hex after `~` for any other; `undefined` for a long id stored by its hash (`~~...`),
 * which only its summary file names, or a stem that is no session's. Only the stem an id's
 * files have ({@link sessionFileStem}) names it: another spelling (`~6e6f746573` for
 * "notes", hex bytes that are no UTF-8, a plain stem of an id stored by its hash) is a
 * planted file's, and taken for the id it would let `list` write and date that id's summary.
 *
 * @example
 * ```ts
 * sessionIdOfFile('notes'); // 'notes'
 * sessionIdOfFile('~4e6f746573'); // 'Notes'
 * ```
 */
export function sessionIdOfFile(stem: string): string | undefined {
  if (stem.startsWith('~~')) return undefined;
  if (!stem.startsWith('~')) return isPlain(stem) ? ownStem(stem, stem) : undefined;
  const hex = stem.slice(1);
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) return undefined;
  return ownStem(Buffer.from(hex, 'hex').toString('utf8'), stem);
}

/** `id` when `stem` is its files' own stem, else `undefined` (no id at all included). */
function ownStem(id: string, stem: string): string | undefined {
  try {
    return sessionFileStem(id) === stem ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether an id is its own stem. Lower case only (hex for the rest), so "Notes" and "notes"
 * stay two files on a case-insensitive file system (macOS, Windows); no Windows device name
 * ("con.x"); no ending that would make its files another session's (see {@link CLASHING_ENDINGS}).
 */
function isPlain(id: string): boolean {
  return /^[a-z0-9_-][a-z0-9_.-]*$/.test(id) && !WINDOWS_DEVICE.test(id) && !CLASHING_ENDINGS.some((ending) => id.endsWith(ending));
}
