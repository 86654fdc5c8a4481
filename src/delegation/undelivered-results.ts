import { DEFAULT_TASK_TRACKER_LIMITS } from './task-tracker-limits.js';

/** Of each conversation's dropped results, the ids named in its note (the count is exact). @internal */
export const NAMED_DROPS = 10;
/** Conversations with a note pending; past this, the oldest note goes. @internal */
export const MAX_NOTED_SESSIONS = 1000;

/** What a waiting result must say about itself (a `TaskInfo` does). */
export interface WaitingResult {
  /** Its task. */
  readonly taskId: string;
  /** When the run of its task that produced it started: a resumed task's next result is another one. */
  readonly startedAt: number;
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
  /** The task ids of the first of them (at most 10). */
  readonly taskIds: readonly string[];
}

/**
 * What names one result: its task and the start of the run that produced it. A task resumed
 * in the background produces a result per run under the same task id; each is delivered.
 *
 * @example
 * ```ts
 * resultKey({ taskId: 'task_1', startedAt: 1700000000000 }); // 'task_1\n1700000000000'
 * ```
 */
export function resultKey(result: Pick<WaitingResult, 'taskId' | 'startedAt'>): string {
  // A task id has no line break: the key splits back at its last one.
  return `${result.taskId}\n${result.startedAt}`;
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
  /** How many results of each task wait (a resumed task may have several). */
  readonly #perTask = new Map<string, number>();
  readonly #dropped = new Map<string, { count: number; taskIds: string[] }>();

  constructor(
    private readonly maxResults = DEFAULT_TASK_TRACKER_LIMITS.undeliveredResults,
    private readonly maxChars = DEFAULT_TASK_TRACKER_LIMITS.undeliveredChars,
  ) {}

  /** Whether a result of this task (of any of its runs) waits for delivery. */
  has(taskId: string): boolean {
    return this.#perTask.has(taskId);
  }

  /** Adds a finished result, dropping the oldest waiting ones that no longer fit. */
  push(info: T): void {
    this.#results.push(info);
    this.#count(info.taskId, 1);
    this.#chars += size(info);
    this.#trim();
  }

  /**
   * Puts back, in front (they are the oldest), results and a note taken for a prompt that
   * could not be saved, or the older results a prompt took but does not show: its
   * conversation's next prompt has them. What no longer fits is dropped and noted, as in
   * {@link UndeliveredResults.push}.
   */
  putBack(sessionId: string, results: readonly T[], dropped: DroppedResults | undefined): void {
    if (dropped) {
      const note = this.#noteOf(sessionId);
      note.count += dropped.count;
      note.taskIds.unshift(...dropped.taskIds);
      note.taskIds.length = Math.min(note.taskIds.length, NAMED_DROPS);
    }
    if (results.length === 0) return;
    this.#results = [...results, ...this.#results];
    for (const info of results) {
      this.#count(info.taskId, 1);
      this.#chars += size(info);
    }
    this.#trim();
  }

  /** Drops the oldest waiting results (noting each) until the rest fit; the newest always stays. */
  #trim(): void {
    let drop = 0;
    while (this.#results.length - drop > 1 && (this.#results.length - drop > this.maxResults || this.#chars > this.maxChars)) {
      const oldest = this.#results[drop++]!;
      this.#chars -= size(oldest);
      this.#count(oldest.taskId, -1);
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
      this.#count(t.taskId, -1);
    }
    return out;
  }

  #count(taskId: string, by: 1 | -1): void {
    const now = (this.#perTask.get(taskId) ?? 0) + by;
    if (now > 0) this.#perTask.set(taskId, now);
    else this.#perTask.delete(taskId);
  }

  #note(info: T): void {
    const note = this.#noteOf(info.sessionId);
    note.count += 1;
    if (note.taskIds.length < NAMED_DROPS) note.taskIds.push(info.taskId);
  }

  /** The conversation's note, made empty if it has none (the oldest note goes past the bound). */
  #noteOf(sessionId: string): { count: number; taskIds: string[] } {
    let note = this.#dropped.get(sessionId);
    if (!note) {
      if (this.#dropped.size >= MAX_NOTED_SESSIONS) this.#dropped.delete(this.#dropped.keys().next().value!);
      this.#dropped.set(sessionId, (note = { count: 0, taskIds: [] }));
    }
    return note;
  }
}

function size(info: WaitingResult): number {
  return (info.result?.length ?? 0) + info.description.length;
}
