/**
 * A reporter of unusable stored data (a corrupt file, a planted Redis key) found where no run
 * is there to carry a `Warning` event: each call is a process warning with `code`, said once
 * per `where` for the life of the process, so a flood of bad entries does not flood the log.
 *
 * @example
 * ```ts
 * const warnBadData = onceWarner('RXHARNESS_BAD_REDIS_DATA');
 * warnBadData('rxh:runs', 'rxh:runs is a string, not a hash: the runs of other engines are not listed');
 * ```
 */
export function onceWarner(code: string): (where: string, message: string) => void {
  const warned = new Set<string>();
  return (where, message) => {
    if (warned.has(where)) return;
    // Bounded: the places warned about are kept only to say each once.
    if (warned.size >= 1000) warned.delete(warned.values().next().value!);
    warned.add(where);
    process.emitWarning(message, { code });
  };
}
