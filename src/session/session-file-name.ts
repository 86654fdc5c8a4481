/**
 * The session id a `FileSessionStore` file stem names: the stem itself for a plain id, the
 * decoded hex after `~` for any other; `undefined` for a long id stored by its hash (`~~...`),
 * which cannot be turned back, or a stem that is no session's.
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
