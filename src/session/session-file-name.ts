import { createHash } from 'node:crypto';
import { assertSessionId } from './session-id.js';

/** Names Windows keeps for devices, with any extension: `con`, `nul.jsonl`, `com1.txt`... */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/;

/** The longest file name stem used as it is (leaves room for the suffixes within 255 bytes). */
const MAX_NAME = 200;

/**
 * The stem of a `FileSessionStore` session's file names: the id itself when it is plain
 * (lower case letters, digits, `_`, `-`, `.`), else `~` and its UTF-8 in hex, and for an id
 * whose stem would pass 200 bytes `~~` and its SHA-256 (which cannot be turned back: the
 * session's summary file keeps the id).
 *
 * @throws TypeError for an id that is empty or not well-formed Unicode (with a lone
 * surrogate, the hex would encode U+FFFD: the name of another id's file).
 *
 * @example
 * ```ts
 * sessionFileStem('notes'); // 'notes'
 * sessionFileStem('Notes'); // '~4e6f746573'
 * ```
 */
export function sessionFileStem(sessionId: string): string {
  assertSessionId(sessionId);
  // Lower case only (hex for the rest), so "Notes" and "notes" stay two files on a
  // case-insensitive file system (macOS, Windows), and no Windows device name ("con.x").
  const plain = /^[a-z0-9_-][a-z0-9_.-]*$/.test(sessionId) && !WINDOWS_DEVICE.test(sessionId);
  const safe = plain ? sessionId : `~${Buffer.from(sessionId).toString('hex')}`;
  // File names stop at 255 bytes: a long id goes by its hash ("~~" is no hex output).
  return safe.length > MAX_NAME ? `~~${createHash('sha256').update(sessionId).digest('hex')}` : safe;
}

/**
 * The session id a `FileSessionStore` file stem names: the stem itself for a plain id, the
 * decoded hex after `~` for any other; `undefined` for a long id stored by its hash (`~~...`),
 * which only its summary file names, or a stem that is no session's.
 *
 * @example
 * ```ts
 * sessionIdOfFile('notes'); // 'notes'
 * sessionIdOfFile('~4e6f746573'); // 'Notes'
 * ```
 */
export function sessionIdOfFile(stem: string): string | undefined {
  if (stem.startsWith('~~')) return undefined;
  if (!stem.startsWith('~')) return /^[a-z0-9_-][a-z0-9_.-]*$/.test(stem) ? stem : undefined;
  const hex = stem.slice(1);
  return /^(?:[0-9a-f]{2})+$/.test(hex) ? Buffer.from(hex, 'hex').toString('utf8') : undefined;
}
