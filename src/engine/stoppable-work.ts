/**
 * Work of an engine that is not a run (a compaction on demand) but must still stop with it:
 * each piece gets a signal, and {@link StoppableWork.stopAll} aborts them all and waits until
 * they have settled, so nothing of them (a model request, a store write) outlives `close()`.
 *
 * @example
 * ```ts
 * const work = new StoppableWork();
 * const event = work.run((signal) => compactStoredSession(scope, 'notes', signal), () => new EngineClosedError());
 * await work.stopAll(); // in close()
 * ```
 */
export class StoppableWork {
  readonly #running = new Map<AbortController, Promise<unknown>>();

  /**
   * Runs `work` with a signal that {@link StoppableWork.stopAll} aborts; when it fails after
   * that, with the error `stopped` makes (what the caller should read: the engine closed),
   * not the abort it caused.
   */
  async run<T>(work: (signal: AbortSignal) => Promise<T>, stopped: () => Error): Promise<T> {
    const controller = new AbortController();
    const done = work(controller.signal);
    this.#running.set(controller, done);
    try {
      return await done;
    } catch (e) {
      throw controller.signal.aborted ? stopped() : e;
    } finally {
      this.#running.delete(controller);
    }
  }

  /** Aborts every piece running and resolves once each has settled (failures are theirs to report). */
  async stopAll(): Promise<void> {
    const running = [...this.#running];
    for (const [controller] of running) controller.abort();
    await Promise.allSettled(running.map(([, done]) => done));
  }
}
