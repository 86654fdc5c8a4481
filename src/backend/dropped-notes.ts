import { MAX_NOTED_SESSIONS, NAMED_DROPS, type DroppedResults } from '../delegation/undelivered-results.js';
import { GoneChecks } from './gone-checks.js';
import { MAX_ID_CHARS } from './task-record.js';

/** A conversation's note of results dropped unread: how many, and the first tasks named. */
export interface Note {
  count: number;
  taskIds: string[];
}

/**
 * A conversation's note as Redis holds it now: the note, `null` when it holds none, or
 * `'failed'` when Redis could not say (the mirror is then left as it is).
 */
export type NoteReader = (sessionId: string) => Promise<Note | null | 'failed'>;

// The task-record id rule: a note's named tasks go into a conversation's prompt uncut.
const isTaskId = (id: unknown): id is string => typeof id === 'string' && id.length > 0 && id.length <= MAX_ID_CHARS;

/**
 * An engine's mirror of the notes of dropped background results Redis holds (one per
 * conversation, see dropped-note-store.ts). Its own changes (a note shown, or given back)
 * are made here at once; another's, or a drop by Redis's bound, are read back from Redis
 * ({@link DroppedNotes.refresh}), never taken from the channel's message: anyone with access
 * to the Redis can publish there, and a forged note's text would reach a conversation's next
 * prompt. Bounded as the tracker's own notes are (`MAX_NOTED_SESSIONS`: the oldest goes).
 *
 * @internal
 */
export class DroppedNotes {
  readonly #notes = new Map<string, Note>();
  /** Conversations whose note is being read back: one read each in flight (a flood of messages on one is one read, then one more). */
  readonly #reading = new GoneChecks();

  constructor(private readonly read: NoteReader) {}

  /** Sets a conversation's note as loaded from Redis (its named tasks held to the id rule). */
  set(sessionId: string, note: Note): void {
    this.#notes.delete(sessionId); // set anew: the newest, last to go past the bound
    if (this.#notes.size >= MAX_NOTED_SESSIONS) this.#notes.delete(this.#notes.keys().next().value!);
    this.#notes.set(sessionId, { count: note.count, taskIds: note.taskIds.filter(isTaskId).slice(0, NAMED_DROPS) });
  }

  /** The conversations it holds a note for (all read back after a drop of the channel). */
  sessions(): string[] {
    return [...this.#notes.keys()];
  }

  /** Whether the mirror has a note for the conversation, or is reading one back. */
  has(sessionId: string): boolean {
    return this.#notes.has(sessionId) || this.#reading.has(sessionId);
  }

  /** Takes the conversation's note, if any (it is gone from here). */
  take(sessionId: string): DroppedResults | undefined {
    const note = this.#notes.get(sessionId);
    if (note) this.#notes.delete(sessionId);
    return note;
  }

  /** A note given back (its named tasks first: the oldest), as Redis's RENOTED script does. */
  renote(sessionId: string, count: number, taskIds: readonly string[]): void {
    const note = this.#notes.get(sessionId) ?? { count: 0, taskIds: [] };
    this.set(sessionId, { count: note.count + count, taskIds: [...taskIds, ...note.taskIds] });
  }

  /**
   * Makes the conversation's note what Redis holds, read after the change announced (Redis
   * announces its changes after making them). A conversation has one read in flight: the
   * announcements (or this mirror's own changes) that come while it is cost one more read,
   * sent once it answers, however many they were (anyone with access to the Redis can publish
   * a flood of them), and only that read's answer is applied: the one in flight may hold less.
   * Redis answers one connection in order, so a read sent after a change holds it.
   */
  refresh(sessionId: string): void {
    if (this.#reading.start([sessionId]).length === 0) return;
    void this.read(sessionId)
      .catch(() => 'failed' as const)
      .then((note) => {
        if (this.#reading.done([sessionId]).length > 0) return this.refresh(sessionId);
        if (note === 'failed') return; // left as it is: a failing Redis is said by its own calls
        if (note === null) this.#notes.delete(sessionId);
        else this.set(sessionId, note);
      });
  }

  /**
   * This mirror changed the note ({@link DroppedNotes.take}, {@link DroppedNotes.renote}) and
   * sent the change to Redis: a read-back on its way holds what was before, so it is read anew,
   * after the change (call this once the change is sent, not before).
   */
  changed(sessionId: string): void {
    if (this.#reading.has(sessionId)) this.refresh(sessionId);
  }
}
