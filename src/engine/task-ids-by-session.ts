/** How many task ids {@link TaskIdsBySession} keeps, all conversations together (ten times the tracker's default `retainFinished`). */
export const MAX_TASK_IDS = 10_000;

/**
 * The ids of the tasks each conversation started, as they started: what the tracker knows
 * of a run's tasks may be less by its end, since it forgets finished tasks past its bound
 * (`retainFinished`), so a long run that delegates much, or other runs finishing many tasks
 * meanwhile, would leave the earliest ones' sessions behind. Bounded in ids: past
 * `max`, the conversations that started none the longest are forgotten first, then the
 * oldest ids of the one starting (a long-lived conversation keeps starting tasks).
 *
 * @example
 * ```ts
 * const ids = new TaskIdsBySession();
 * ids.add('run-session', 'task_1');
 * ids.take('run-session'); // ['task_1'], and forgotten
 * ```
 */
export class TaskIdsBySession {
  readonly #bySession = new Map<string, Set<string>>();
  #count = 0;

  constructor(private readonly max = MAX_TASK_IDS) {}

  /** Records a task of a conversation (again: no change); its conversation becomes the newest. */
  add(sessionId: string, taskId: string): void {
    const ids = this.#bySession.get(sessionId) ?? new Set<string>();
    if (ids.has(taskId)) return;
    ids.add(taskId);
    this.#count += 1;
    // Re-inserted: the Map's order is the order in which conversations last started a task.
    this.#bySession.delete(sessionId);
    this.#bySession.set(sessionId, ids);
    for (const [oldest, theirs] of this.#bySession) {
      if (this.#count <= this.max) return;
      if (oldest === sessionId) break;
      this.#bySession.delete(oldest);
      this.#count -= theirs.size;
    }
    // Alone past the bound (a long-lived conversation): its own oldest ids go.
    for (const id of ids) {
      if (this.#count <= this.max) return;
      ids.delete(id);
      this.#count -= 1;
    }
  }

  /** The conversation's recorded task ids, forgotten now. */
  take(sessionId: string): string[] {
    const ids = this.#bySession.get(sessionId);
    if (!ids) return [];
    this.#bySession.delete(sessionId);
    this.#count -= ids.size;
    return [...ids];
  }
}
