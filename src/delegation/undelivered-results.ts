/** How many finished background results wait for their conversations at most, all conversations together. */
export const MAX_UNDELIVERED_RESULTS = 1000;
/** How much result text (UTF-16 units) waits for delivery at most, all conversations together. */
export const MAX_UNDELIVERED_CHARS = 16 * 1024 * 1024;
// Of each conversation's dropped results, the ids named in its note (the count is exact).
const NAMED_DROPS = 10;
// Conversations with a note pending; past this, the oldest note goes.
const MAX_NOTED_SESSIONS = 1000;

/** What a waiting result must say about itself (a `TaskInfo` does). */
export interface WaitingResult {
  /** Its task. */
  readonly taskId: string;
  /** The conversation it waits for. */
  readonly sessionId: string;
  /** Its task's label (counted in its size). */
  readonly description: string;
  /** Its text (counted in its size). */
  readonly result?: string;
}

/** Results of a conversation dropped unread to bound memory: how many, and the ids of the first few. */
export interface DroppedResults {
  /** How many were dropped since its last prompt. */
  readonly count: number;
  /** The ids of the first of them (at most 10). */
  readonly taskIds: readonly string[];
}

/**
 * Finished background results waiting for the next prompt of their conversation, bounded in
 * count and in text: a conversation that never comes back must not hold them for ever. When a
 * new result does not fit, the oldest waiting ones are dropped (their tasks stay readable
 * through `engine.tasks.get` while the tracker keeps them), and their conversation's next
 * prompt says so.
 *
 * @example
 * ```ts
 * const waiting = new UndeliveredResults<TaskInfo>();
 * waiting.push(info);
 * waiting.take(info.sessionId); // [info]
 * ```
 */
export class UndeliveredResults<T extends WaitingResult> {
  #results: T[] = [];
  #chars = 0;
  readonly #ids = new Set<string>();
  readonly #dropped = new Map<string, { count: number; taskIds: string[] }>();

  constructor(
    private readonly maxResults = MAX_UNDELIVERED_RESULTS,
    private readonly maxChars = MAX_UNDELIVERED_CHARS,
  ) {}

  /** Whether this task's result waits for delivery. */
  has(taskId: string): boolean {
    return this.#ids.has(taskId);
  }

  /** Adds a finished result, dropping the oldest waiting ones that no longer fit. */
  push(info: T): void {
    this.#results.push(info);
    this.#ids.add(info.taskId);
    this.#chars += size(info);
    let drop = 0;
    while (this.#results.length - drop > 1 && (this.#results.length - drop > this.maxResults || this.#chars > this.maxChars)) {
      const oldest = this.#results[drop++]!;
      this.#chars -= size(oldest);
      this.#ids.delete(oldest.taskId);
      this.#note(oldest);
    }
    if (drop > 0) this.#results = this.#results.slice(drop);
  }

  /** Hands over a conversation's waiting results, once. */
  take(sessionId: string): T[] {
    return this.#remove((t) => t.sessionId === sessionId);
  }

  /** Hands over, once, the note of a conversation's results dropped since it was last asked. */
  takeDropped(sessionId: string): DroppedResults | undefined {
    const dropped = this.#dropped.get(sessionId);
    this.#dropped.delete(sessionId);
    return dropped;
  }

  /** Drops a conversation's waiting results and note: it will never run again. */
  forget(sessionId: string): void {
    this.#remove((t) => t.sessionId === sessionId);
    this.#dropped.delete(sessionId);
  }

  #remove(match: (t: T) => boolean): T[] {
    const out = this.#results.filter(match);
    if (out.length === 0) return out;
    this.#results = this.#results.filter((t) => !match(t));
    for (const t of out) {
      this.#chars -= size(t);
      this.#ids.delete(t.taskId);
    }
    return out;
  }

  #note(info: T): void {
    let note = this.#dropped.get(info.sessionId);
    if (!note) {
      if (this.#dropped.size >= MAX_NOTED_SESSIONS) this.#dropped.delete(this.#dropped.keys().next().value!);
      this.#dropped.set(info.sessionId, (note = { count: 0, taskIds: [] }));
    }
    note.count += 1;
    if (note.taskIds.length < NAMED_DROPS) note.taskIds.push(info.taskId);
  }
}

function size(info: WaitingResult): number {
  return (info.result?.length ?? 0) + info.description.length;
}
