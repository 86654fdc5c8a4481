import { onceWarner } from '../errors/warn-once.js';

/** The warning code of what {@link warnBadSummary} reports. */
export const BAD_SESSION_SUMMARY = 'RXHARNESS_BAD_SESSION_SUMMARY';

/**
 * Says that a conversation was left out of `SessionStore.list()` because its stored summary
 * is not one the store wrote (corrupt, planted, or a link): a process warning (code
 * `RXHARNESS_BAD_SESSION_SUMMARY`), once per file for the life of the process. The list goes
 * on with the others.
 *
 * @example
 * ```ts
 * warnBadSummary(file, `${file} is not JSON: the conversation is not listed; delete the file to have it written again`);
 * ```
 */
export const warnBadSummary: (where: string, message: string) => void = onceWarner(BAD_SESSION_SUMMARY);
