/**
 * The read-backs a channel's `forget` messages cost, coalesced per id: anyone with access to
 * the Redis can publish a `forget`, and each used to send one read of the record it names, so
 * a flood of forged ones naming a known task or run was a flood of reads. Now an id has at
 * most one read in flight; the forgets that arrive meanwhile cost one more read, sent once it
 * answers, however many they were (that read is needed: the one in flight may have been
 * answered before a real forget's record was deleted). The results channel's words are read
 * back the same way: a result's fate (`taken`, `dropped`: apply-result-message.ts) and a
 * conversation's note (`noted`, `renoted`: dropped-notes.ts).
 *
 * @module
 */

/** The ids whose record is being read back, each with whether a forget came while it was. @internal */
export class GoneChecks {
  readonly #flying = new Map<string, boolean>();

  /**
   * The ids among `ids` to read now (none of them in flight, each now is); those in flight
   * are read again once their read answers ({@link GoneChecks.done}).
   */
  start(ids: readonly string[]): string[] {
    const fresh: string[] = [];
    for (const id of ids) {
      if (this.#flying.has(id)) this.#flying.set(id, true);
      else {
        this.#flying.set(id, false);
        fresh.push(id);
      }
    }
    return fresh;
  }

  /** Whether `id` is being read. */
  has(id: string): boolean {
    return this.#flying.has(id);
  }

  /** The read of `ids` answered (or failed): they are in flight no more; answers those forgotten meanwhile, to read again. */
  done(ids: readonly string[]): string[] {
    const again = ids.filter((id) => this.#flying.get(id) === true);
    for (const id of ids) this.#flying.delete(id);
    return again;
  }
}
