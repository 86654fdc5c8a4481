import { MAX_NOTED_SESSIONS, NAMED_DROPS, type DroppedResults } from '../delegation/undelivered-results.js';

/** A conversation's note of results dropped unread: how many, and the first tasks named. */
interface Note {
  count: number;
  taskIds: string[];
}

/**
 * An engine's mirror of the notes of dropped background results Redis holds (one per
 * conversation, see waiting-results-store.ts), changed as the channel tells: a drop counts
 * in, a note shown elsewhere or given back changes it as Redis's scripts did. Bounded as
 * the tracker's own notes are (`MAX_NOTED_SESSIONS`: the oldest goes).
 *
 * @internal
 */
export class DroppedNotes {
  readonly #notes = new Map<string, Note>();

  /** Sets a conversation's note as loaded from Redis. */
  set(sessionId: string, note: Note): void {
    this.#notes.set(sessionId, note);
  }

  /** Takes the conversation's note, if any (it is gone from here). */
  take(sessionId: string): DroppedResults | undefined {
    const note = this.#notes.get(sessionId);
    if (note) this.#notes.delete(sessionId);
    return note;
  }

  /** Redis dropped a result of `taskId` to keep its bound: its conversation's note counts it. */
  dropped(sessionId: string, taskId: string): void {
    const note = this.#noteOf(sessionId);
    note.count += 1;
    if (note.taskIds.length < NAMED_DROPS) note.taskIds.push(taskId);
  }

  /** A note given back (its named tasks first: the oldest), as Redis's RENOTED script does. */
  renote(sessionId: string, count: number, taskIds: readonly string[]): void {
    const note = this.#noteOf(sessionId);
    note.count += count;
    note.taskIds = [...taskIds.filter((id) => typeof id === 'string'), ...note.taskIds].slice(0, NAMED_DROPS);
  }

  /**
   * A note shown elsewhere (`count` of it), or results delivered that a racing drop named
   * (`onlyNamed`: only the named ones count).
   */
  unnote(sessionId: string, count: number, taskIds: readonly string[], onlyNamed: boolean): void {
    const note = this.#notes.get(sessionId);
    if (!note) return;
    const gone = new Set(taskIds);
    const kept = note.taskIds.filter((id) => !gone.has(id));
    note.count -= onlyNamed ? note.taskIds.length - kept.length : count;
    note.taskIds = kept;
    if (note.count <= 0) this.#notes.delete(sessionId);
  }

  /** The conversation's note, made empty if it has none (the oldest note goes past the bound). */
  #noteOf(sessionId: string): Note {
    let note = this.#notes.get(sessionId);
    if (!note) {
      if (this.#notes.size >= MAX_NOTED_SESSIONS) this.#notes.delete(this.#notes.keys().next().value!);
      this.#notes.set(sessionId, (note = { count: 0, taskIds: [] }));
    }
    return note;
  }
}
