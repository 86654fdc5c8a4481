/**
 * One `abort` listener per signal, however many runs share it. An app that passes one
 * `AbortSignal` to many runs (a request's signal to every run it starts) would otherwise
 * add a listener per run, and Node warns past ten (`MaxListenersExceededWarning`).
 */
interface Fanout {
  readonly listeners: Set<() => void>;
  readonly onAbort: () => void;
}

const fanouts = new WeakMap<AbortSignal, Fanout>();

/**
 * Calls `listener` once when `signal` aborts; the returned function stops listening. The
 * signal's own listener goes when its last listener does: nothing is left behind.
 *
 * @example
 * ```ts
 * const stop = onAbort(signal, () => subscription.unsubscribe());
 * // when the work ends first:
 * stop();
 * ```
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let fanout = fanouts.get(signal);
  if (!fanout) {
    const listeners = new Set<() => void>();
    const created: Fanout = {
      listeners,
      onAbort: () => {
        fanouts.delete(signal);
        for (const each of [...listeners]) each();
      },
    };
    fanout = created;
    fanouts.set(signal, fanout);
    signal.addEventListener('abort', fanout.onAbort, { once: true });
  }
  const own = fanout;
  // A wrapper per call, so the same function added twice is called twice and removed once.
  const entry = (): void => listener();
  own.listeners.add(entry);
  return () => {
    if (!own.listeners.delete(entry) || own.listeners.size > 0) return;
    signal.removeEventListener('abort', own.onAbort);
    if (fanouts.get(signal) === own) fanouts.delete(signal);
  };
}
