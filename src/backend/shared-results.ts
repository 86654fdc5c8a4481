import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { TaskTrackerLimits } from '../delegation/task-tracker-limits.js';
import { resultKey, type DroppedResults } from '../delegation/undelivered-results.js';
import type { ChannelHub } from './channel-hub.js';
import { DeferredTakes } from './deferred-takes.js';
import { DroppedNotes } from './dropped-notes.js';
import { followResults } from './follow-results.js';
import { loadWaitingResults, readDroppedNote } from './load-waiting-results.js';
import type { RedisKeys } from './redis-keys.js';
import { WaitingMirror } from './waiting-mirror.js';
import { putBackDroppedNote, takeDroppedNote } from './dropped-note-store.js';
import { putWaitingResult } from './waiting-result-put.js';
import { takeWaitingResults } from './waiting-result-take.js';
import { writeWaitingBound } from './waiting-results-store.js';

export { RESULTS_SKIPPED } from './follow-results.js';

/**
 * The background results every engine on a backend can deliver: a finished background
 * task's result is written to Redis (a hash per conversation) and announced, so it reaches
 * the conversation's next prompt on whichever engine runs it, even when the engine that
 * started the task is gone. Redis holds the one bound on waiting results
 * (waiting-result-put.ts): what it drops is announced and noted for its conversation.
 * Each engine mirrors exactly what Redis holds, results and notes (loaded at start, kept
 * current over pub/sub), because the prompt's prefix is taken synchronously; so the mirror
 * is bounded as Redis is, and a result the note calls dropped is never delivered. A take
 * deletes the results in Redis and tells the other engines, at the end of its turn: what is
 * given back in that turn (the older results a prompt does not show) never leaves Redis
 * (deferred-takes.ts). A result is named by its task and run start (`resultKey`): a task
 * resumed in the background delivers each run's result, and the one result a worker and its
 * launching engine both put is delivered once. A put-back (a prompt whose save failed)
 * writes the taken results back where they stood in the bound's order, with their note
 * (`renoted`), so the conversation's next turn gets them on any engine. The copy is
 * waiting-mirror.ts and dropped-notes.ts; the channel is followed by follow-results.ts
 * (read by result-message.ts, applied by apply-result-message.ts); the load is load-waiting-results.ts.
 *
 * @internal
 */
export class SharedResults {
  readonly #mirror = new WaitingMirror();
  readonly #notes = new DroppedNotes((sessionId) => readDroppedNote(this.redis, this.keys, sessionId));
  /** Names this mirror's messages, so it skips its own note subtractions. */
  readonly #origin = randomUUID();
  /** Its backend is closing: what its engine records now (tasks failed as "the backend was closed") is no result. */
  #stopped = false;
  /** The takes on their way to Redis, and where the results taken stood (for a put-back). */
  readonly #takes = new DeferredTakes((sessionId, keys) => takeWaitingResults(this.redis, this.keys, sessionId, keys, this.#origin));

  private constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /**
   * Loads the results and notes waiting in Redis (entries that are no result, in one warning:
   * `loadWaitingResults`) and follows their changes (`applyResultMessage`; messages that are
   * none are skipped, said at most once a minute: `badMessagesOn`).
   */
  static async create(redis: Redis, keys: RedisKeys, hub: ChannelHub): Promise<{ results: SharedResults; stop: () => void }> {
    const results = new SharedResults(redis, keys);
    const unlisten = await followResults(redis, keys, hub, { mirror: results.#mirror, notes: results.#notes, origin: results.#origin });
    const stop = (): void => {
      results.#stopped = true;
      unlisten();
    };
    const sink = { result: (info: TaskInfo) => results.#mirror.add(info), note: (sessionId: string, note: { count: number; taskIds: string[] }) => results.#notes.set(sessionId, note) };
    await loadWaitingResults(redis, keys, sink).catch((e: unknown) => {
      stop();
      throw e;
    });
    return { results, stop };
  }

  /** How many results the mirror holds (at most the bound Redis keeps, and those on their way). */
  get size(): number {
    return this.#mirror.size;
  }

  /**
   * Puts one of this engine's finished background results where every engine finds it,
   * here at once (a prompt right after its task ended delivers it) and in Redis, which
   * applies the bound.
   */
  put(info: TaskInfo): void {
    const key = resultKey(info);
    // One forgotten on a word still being checked is put all the same: Redis decides (a forged `taken` must not keep it from Redis).
    if (this.#stopped || (this.#mirror.wasTaken(key) && !this.#mirror.isChecking(key))) return;
    this.#mirror.add(info);
    putWaitingResult(this.redis, this.keys, info).catch(() => undefined); // still delivered here
  }

  /**
   * Takes the conversation's waiting results (each once, across every engine), in the order
   * they came. Redis hears of it at the end of this turn (`DeferredTakes`).
   */
  take(sessionId: string): TaskInfo[] {
    const found = this.#mirror.of(sessionId);
    if (found.length === 0) return found;
    const keys = found.map(resultKey);
    for (const key of keys) this.#mirror.remove(sessionId, key);
    for (const key of keys) this.#mirror.markTaken(key, sessionId, true);
    this.#takes.take(sessionId, keys);
    return found;
  }

  /**
   * Gives back what {@link SharedResults.take} and {@link SharedResults.takeDropped} handed
   * over (`results` oldest first), here at once and in Redis, no longer taken on any engine,
   * so the conversation's next prompt has them wherever it runs. Here they go in front of
   * what came since, in their order; in Redis, where each stood in the bound's order (one
   * taken in this turn never left it), so the bound drops them no sooner than had they stayed.
   */
  putBack(sessionId: string, results: readonly TaskInfo[], dropped: DroppedResults | undefined): void {
    if (dropped) {
      this.#notes.renote(sessionId, dropped.count, dropped.taskIds);
      putBackDroppedNote(this.redis, this.keys, sessionId, dropped, this.#origin).catch(() => undefined);
      this.#notes.changed(sessionId); // after the change is sent: a read-back sent before it holds less
    }
    this.#mirror.putBack(sessionId, results);
    const sent: { info: TaskInfo; place: Promise<string | undefined> }[] = [];
    for (const info of results) {
      const back = this.#takes.giveBack(sessionId, resultKey(info));
      if (back !== true) sent.push({ info, place: back });
    }
    if (sent.length === 0) return;
    // In their order, once every place is known (a take answers in moments); the conversation's
    // takes made meanwhile are sent after them (`DeferredTakes.holdFor`), else Redis got them first.
    const putting = Promise.all(sent.map(({ place }) => place)).then((places) => {
      sent.forEach(({ info }, i) => putWaitingResult(this.redis, this.keys, info, true, places[i]).catch(() => undefined)); // still delivered here
    });
    this.#takes.holdFor(sessionId, putting);
  }

  /** Takes, once across every engine, the note of the conversation's results dropped unread. */
  takeDropped(sessionId: string): DroppedResults | undefined {
    const note = this.#notes.take(sessionId);
    if (!note) return undefined;
    takeDroppedNote(this.redis, this.keys, sessionId, note, this.#origin).catch(() => undefined);
    this.#notes.changed(sessionId); // after the change is sent: a read-back sent before it holds less
    return note;
  }

  /** Whether this result (this run's of its task) was delivered already, by any engine, or dropped. */
  wasTaken(info: TaskInfo): boolean {
    return this.#mirror.wasTaken(resultKey(info));
  }

  /**
   * Makes an engine's `taskTrackerLimits` the bound every put applies, a worker's too (see
   * `writeWaitingBound`). Resolves once Redis has it.
   */
  async bound(limits: TaskTrackerLimits): Promise<void> {
    await writeWaitingBound(this.redis, this.keys, limits);
  }

  /** Drops a conversation that will never run again. */
  forget(sessionId: string): void {
    this.take(sessionId);
    this.takeDropped(sessionId);
  }

  /**
   * Drops, read from Redis itself, what waits for a conversation that will never run again:
   * a worker puts a result before its task's end reaches the engine, so the mirror may not
   * have heard of it yet, and left there it would count against the bound for a week.
   */
  async dropAll(sessionId: string): Promise<void> {
    this.forget(sessionId);
    void this.#takes.flush(sessionId).catch(() => undefined); // may go after the read below (a held put-back delays it): a key is then taken twice, harmlessly
    const waiting = await this.redis.hkeys(this.keys.results(sessionId));
    if (waiting.length === 0) return;
    for (const key of waiting) {
      this.#mirror.remove(sessionId, key);
      this.#mirror.markTaken(key, sessionId, true);
    }
    await takeWaitingResults(this.redis, this.keys, sessionId, waiting, this.#origin);
  }
}

/** Writes a finished background task's result where every engine finds it (what a worker does). */
export async function publishResult(redis: Redis, keys: RedisKeys, info: TaskInfo): Promise<void> {
  await putWaitingResult(redis, keys, info);
}
