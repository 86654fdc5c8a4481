/** The warning code of what {@link warnBadSummary} reports. */
export const BAD_SESSION_SUMMARY = 'RXHARNESS_BAD_SESSION_SUMMARY';

const warned = new Set<string>();

/**
 * Says that a conversation was left out of `SessionStore.list()` because its stored summary
 * is not one the store wrote (corrupt, planted, or a link): a process warning (code
 * `RXHARNESS_BAD_SESSION_SUMMARY`), once per `where` for the life of the process, so a
 * folder full of bad files does not flood the log. The list goes on with the others.
 *
 * @example
 * ```ts
 * warnBadSummary(file, `${file} is not JSON: the conversation is not listed; delete the file to have it written again`);
 * ```
 */
export function warnBadSummary(where: string, message: string): void {
  if (warned.has(where)) return;
  // Bounded: the places warned about are kept only to say each once.
  if (warned.size >= 1000) warned.delete(warned.values().next().value!);
  warned.add(where);
  process.emitWarning(message, { code: BAD_SESSION_SUMMARY });
}
