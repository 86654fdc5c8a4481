import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { TaskTrackerLimits } from '../delegation/task-tracker-limits.js';
import { MAX_NOTED_SESSIONS, NAMED_DROPS, resultKey, type DroppedResults } from '../delegation/undelivered-results.js';
import type { ChannelHub } from './channel-hub.js';
import { loadHash } from './load-hash.js';
import type { RedisKeys } from './redis-keys.js';
import { RefusedRecords } from './refused-records.js';
import { parseTaskInfo, readTaskRecord } from './task-record.js';
import { parseDroppedNote, putBackDroppedNote, putWaitingResult, takeDroppedNote, takeWaitingResults, writeWaitingBound, type ResultMessage } from './waiting-results-store.js';

/**
 * The background results every engine on a backend can deliver: a finished background
 * task's result is written to Redis (a hash per conversation) and announced, so it reaches
 * the conversation's next prompt on whichever engine runs it, even when the engine that
 * started the task is gone. Redis holds the one bound on waiting results
 * (waiting-results-store.ts): what it drops is announced and noted for its conversation.
 * Each engine mirrors exactly what Redis holds, results and notes (loaded at start, kept
 * current over pub/sub), because the prompt's prefix is taken synchronously; so the mirror
 * is bounded as Redis is, and a result the note calls dropped is never delivered. A take
 * deletes the results in Redis and tells the other engines. A result is named by its task
 * and run start (`resultKey`): a task resumed in the background delivers each run's result,
 * and the one result a worker and its launching engine both put is delivered once. A put-back
 * (a prompt whose save failed) writes the taken results back in front, with their note
 * (`renoted`), so the conversation's next turn gets them on any engine.
 *
 * @internal
 */
export class SharedResults {
  /** By conversation, by `resultKey`. */
  readonly #waiting = new Map<string, Map<string, TaskInfo>>();
  #size = 0;
  readonly #notes = new Map<string, { count: number; taskIds: string[] }>();
  /** Results (their `resultKey`) taken here or elsewhere, or dropped: a late announcement of one must not bring it back. */
  readonly #taken = new Set<string>();
  /** Names this mirror's messages, so it skips its own note subtractions. */
  readonly #origin = randomUUID();
  /** Its backend is closing: what its engine records now (tasks failed as "the backend was closed") is no result. */
  #stopped = false;

  private constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Loads the results and notes waiting in Redis (entries that are no result, in one warning) and follows their changes. */
  static async create(redis: Redis, keys: RedisKeys, hub: ChannelHub): Promise<{ results: SharedResults; stop: () => void }> {
    const results = new SharedResults(redis, keys);
    const unlisten = await hub.listen(keys.resultsChannel, (text) => results.#onMessage(JSON.parse(text) as ResultMessage));
    const stop = (): void => {
      results.#stopped = true;
      unlisten();
    };
    // What no engine or worker writes is passed over, all of it in one warning per load.
    const refused = new RefusedRecords('background results in Redis', 'delivered');
    await scanKeys(redis, keys.results('*'), async (key) => {
      const waiting = await loadHash(redis, key, 'the background results it should hold are not delivered');
      for (const [field, text] of Object.entries(waiting)) {
        const read = readTaskRecord(text);
        if ('problem' in read) refused.add(`${key} field ${field}`, read.problem);
        else results.#add(read.info);
      }
    });
    refused.report();
    await scanKeys(redis, keys.droppedResults('*'), async (key) => {
      const note = parseDroppedNote(await redis.get(key).catch(() => null)); // a wrong-type key is no note
      if (note) results.#notes.set(key.slice(keys.droppedResults('').length), note);
    });
    return { results, stop };
  }

  /** How many results the mirror holds (at most the bound Redis keeps, and those on their way). */
  get size(): number {
    return this.#size;
  }

  /**
   * Puts one of this engine's finished background results where every engine finds it,
   * here at once (a prompt right after its task ended delivers it) and in Redis, which
   * applies the bound.
   */
  put(info: TaskInfo): void {
    if (this.#stopped || this.#taken.has(resultKey(info))) return;
    this.#add(info);
    putWaitingResult(this.redis, this.keys, info).catch(() => undefined); // still delivered here
  }

  /** Takes the conversation's waiting results (each once, across every engine). */
  take(sessionId: string): TaskInfo[] {
    const found = [...(this.#waiting.get(sessionId)?.values() ?? [])];
    if (found.length === 0) return found;
    const keys = found.map(resultKey);
    for (const key of keys) this.#remove(sessionId, key);
    for (const key of keys) this.#markTaken(key);
    // A result Redis could not forget is at worst delivered twice.
    takeWaitingResults(this.redis, this.keys, sessionId, keys, this.#origin).catch(() => undefined);
    return found;
  }

  /**
   * Gives back what {@link SharedResults.take} and {@link SharedResults.takeDropped} handed
   * over for a prompt that could not be saved, here at once and in Redis: in front (the
   * oldest, so the bound drops them first), no longer taken on any engine, so the
   * conversation's next prompt has them wherever it runs.
   */
  putBack(sessionId: string, results: readonly TaskInfo[], dropped: DroppedResults | undefined): void {
    if (dropped) {
      this.#renote(sessionId, dropped.count, dropped.taskIds);
      putBackDroppedNote(this.redis, this.keys, sessionId, dropped, this.#origin).catch(() => undefined);
    }
    // Last first: each goes in front of the ones before, so they keep their order.
    for (const info of [...results].reverse()) {
      this.#taken.delete(resultKey(info));
      this.#add(info);
      putWaitingResult(this.redis, this.keys, info, true).catch(() => undefined); // still delivered here
    }
  }

  /** Takes, once across every engine, the note of the conversation's results dropped unread. */
  takeDropped(sessionId: string): DroppedResults | undefined {
    const note = this.#notes.get(sessionId);
    if (!note) return undefined;
    this.#notes.delete(sessionId);
    takeDroppedNote(this.redis, this.keys, sessionId, note, this.#origin).catch(() => undefined);
    return note;
  }

  /** Whether this result (this run's of its task) was delivered already, by any engine, or dropped. */
  wasTaken(info: TaskInfo): boolean {
    return this.#taken.has(resultKey(info));
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
    const waiting = await this.redis.hkeys(this.keys.results(sessionId));
    if (waiting.length === 0) return;
    for (const key of waiting) {
      this.#remove(sessionId, key);
      this.#markTaken(key);
    }
    await takeWaitingResults(this.redis, this.keys, sessionId, waiting, this.#origin);
  }

  #markTaken(key: string): void {
    this.#taken.add(key);
    // Bounded: a late announcement comes within moments, not after thousands of deliveries.
    if (this.#taken.size > 10_000) this.#taken.delete(this.#taken.values().next().value!);
  }

  #add(info: TaskInfo | undefined): void {
    if (!info) return; // not a task snapshot: skipped
    const key = resultKey(info);
    if (this.#taken.has(key)) return;
    let mine = this.#waiting.get(info.sessionId);
    if (!mine) this.#waiting.set(info.sessionId, (mine = new Map()));
    if (!mine.has(key)) this.#size++;
    mine.set(key, info);
  }

  #remove(sessionId: string, key: string): void {
    const mine = this.#waiting.get(sessionId);
    if (!mine?.delete(key)) return;
    this.#size--;
    if (mine.size === 0) this.#waiting.delete(sessionId);
  }

  #onMessage(message: ResultMessage): void {
    if (message.op === 'put') return this.#put(parseTaskInfo(message.info), message.back === true);
    if (typeof message.sessionId !== 'string') return;
    if (message.op === 'dropped') return this.#dropped(message.sessionId, message.taskId, message.key);
    if (message.op === 'taken') {
      if (!Array.isArray(message.keys)) return; // not what a mirror sends
      // This mirror's own take removed them already, and a put-back since must stay.
      if (message.origin !== this.#origin)
        for (const key of message.keys) {
          this.#markTaken(key);
          this.#remove(message.sessionId, key);
        }
      const taskIds = message.keys.map((key) => key.slice(0, key.lastIndexOf('\n')));
      return this.#unnote(message.sessionId, taskIds.length, taskIds, true);
    }
    if (message.origin === this.#origin) return; // a note change made here at once
    if (message.op === 'noted') this.#unnote(message.sessionId, message.count, message.taskIds, false);
    if (message.op === 'renoted' && Number.isInteger(message.count) && message.count > 0 && Array.isArray(message.taskIds)) this.#renote(message.sessionId, message.count, message.taskIds);
  }

  /** A result put; one given back (`back`) is no longer taken. */
  #put(info: TaskInfo | undefined, back: boolean): void {
    if (info && back) this.#taken.delete(resultKey(info));
    this.#add(info);
  }

  /** Redis dropped a result to keep its bound: it is no longer delivered, its conversation's note says so. */
  #dropped(sessionId: string, taskId: string, key: string): void {
    if (typeof taskId !== 'string' || typeof key !== 'string' || this.#taken.has(key)) return; // delivered as Redis dropped it
    this.#remove(sessionId, key);
    this.#markTaken(key); // this engine's own copy of it, put late, must not bring it back
    const note = this.#noteOf(sessionId);
    note.count += 1;
    if (note.taskIds.length < NAMED_DROPS) note.taskIds.push(taskId);
  }

  /** A note given back (its named tasks first: the oldest), as Redis's RENOTED script does. */
  #renote(sessionId: string, count: number, taskIds: readonly string[]): void {
    const note = this.#noteOf(sessionId);
    note.count += count;
    note.taskIds = [...taskIds.filter((id) => typeof id === 'string'), ...note.taskIds].slice(0, NAMED_DROPS);
  }

  /** The conversation's note, made empty if it has none (the oldest note goes past the bound). */
  #noteOf(sessionId: string): { count: number; taskIds: string[] } {
    let note = this.#notes.get(sessionId);
    if (!note) {
      if (this.#notes.size >= MAX_NOTED_SESSIONS) this.#notes.delete(this.#notes.keys().next().value!);
      this.#notes.set(sessionId, (note = { count: 0, taskIds: [] }));
    }
    return note;
  }

  /**
   * A note shown elsewhere (`count` of it), or results delivered that a racing drop named
   * (`onlyNamed`: only the named ones count).
   */
  #unnote(sessionId: string, count: number, taskIds: readonly string[], onlyNamed: boolean): void {
    const note = this.#notes.get(sessionId);
    if (!note) return;
    const gone = new Set(taskIds);
    const kept = note.taskIds.filter((id) => !gone.has(id));
    note.count -= onlyNamed ? note.taskIds.length - kept.length : count;
    note.taskIds = kept;
    if (note.count <= 0) this.#notes.delete(sessionId);
  }
}

/** Writes a finished background task's result where every engine finds it (what a worker does). */
export async function publishResult(redis: Redis, keys: RedisKeys, info: TaskInfo): Promise<void> {
  await putWaitingResult(redis, keys, info);
}

async function scanKeys(redis: Redis, pattern: string, each: (key: string) => Promise<void>): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    for (const key of found) await each(key);
  } while (cursor !== '0');
}
