import type { Redis } from 'ioredis';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { ChannelHub } from './channel-hub.js';
import { loadHash } from './load-hash.js';
import type { RedisKeys } from './redis-keys.js';
import { parseTaskInfo } from './task-record.js';

type ResultMessage = { readonly op: 'put'; readonly info: TaskInfo } | { readonly op: 'taken'; readonly sessionId: string; readonly taskIds: readonly string[] };

/** How long a background result waits in Redis for its conversation's next prompt. */
export const RESULT_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * The background results every engine on a backend can deliver: a worker that finishes a
 * background task writes its result to Redis (a hash per conversation) and announces it, so
 * the result reaches the conversation's next prompt on whichever engine runs it, even when
 * the engine that started the task is gone. Each engine mirrors the hashes in memory
 * (loaded at start, kept current over pub/sub), because the prompt's prefix is taken
 * synchronously; a take deletes the results in Redis and tells the other engines.
 *
 * @internal
 */
export class SharedResults {
  readonly #waiting = new Map<string, Map<string, TaskInfo>>();
  /** Taken here or elsewhere: a late announcement of one must not bring it back. */
  readonly #taken = new Set<string>();

  private constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Loads the results waiting in Redis and follows new ones. */
  static async create(redis: Redis, keys: RedisKeys, hub: ChannelHub): Promise<{ results: SharedResults; stop: () => void }> {
    const results = new SharedResults(redis, keys);
    const stop = await hub.listen(keys.resultsChannel, (text) => results.#onMessage(JSON.parse(text) as ResultMessage));
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', keys.results('*'), 'COUNT', 500);
      cursor = next;
      for (const key of found) {
        const waiting = await loadHash(redis, key, 'the background results it should hold are not delivered');
        for (const text of Object.values(waiting)) results.#add(parseTaskInfo(text));
      }
    } while (cursor !== '0');
    return { results, stop };
  }

  /** Takes the conversation's waiting results (each once, across every engine). */
  take(sessionId: string, alsoTaken: readonly TaskInfo[]): TaskInfo[] {
    const mine = this.#waiting.get(sessionId);
    this.#waiting.delete(sessionId);
    const ids = new Set(alsoTaken.map((t) => t.taskId));
    const found = [...(mine?.values() ?? [])].filter((t) => !ids.has(t.taskId));
    const taskIds = [...ids, ...found.map((t) => t.taskId)];
    if (taskIds.length > 0) {
      for (const id of taskIds) this.#markTaken(id);
      const message: ResultMessage = { op: 'taken', sessionId, taskIds };
      this.redis
        .multi()
        .hdel(this.keys.results(sessionId), ...taskIds)
        .publish(this.keys.resultsChannel, JSON.stringify(message))
        .exec()
        .catch(() => undefined); // a result Redis could not forget is at worst delivered twice
    }
    return found;
  }

  /** Whether the task's result was delivered already (by any engine). */
  wasTaken(taskId: string): boolean {
    return this.#taken.has(taskId);
  }

  /** Drops a conversation that will never run again. */
  forget(sessionId: string): void {
    this.take(sessionId, []);
  }

  #markTaken(taskId: string): void {
    this.#taken.add(taskId);
    // Bounded: a late announcement comes within moments, not after thousands of deliveries.
    if (this.#taken.size > 10_000) this.#taken.delete(this.#taken.values().next().value!);
  }

  #add(info: TaskInfo | undefined): void {
    if (!info || this.#taken.has(info.taskId)) return; // not a task snapshot: skipped
    let mine = this.#waiting.get(info.sessionId);
    if (!mine) this.#waiting.set(info.sessionId, (mine = new Map()));
    mine.set(info.taskId, info);
  }

  #onMessage(message: ResultMessage): void {
    if (message.op === 'put') return this.#add(parseTaskInfo(message.info));
    for (const id of message.taskIds) {
      this.#markTaken(id);
      this.#waiting.get(message.sessionId)?.delete(id);
    }
  }
}

/** Writes a finished background task's result where every engine finds it (what a worker does). */
export async function publishResult(redis: Redis, keys: RedisKeys, info: TaskInfo): Promise<void> {
  const key = keys.results(info.sessionId);
  const message: ResultMessage = { op: 'put', info };
  await redis.multi().hset(key, info.taskId, JSON.stringify(info)).pexpire(key, RESULT_TTL_MS).publish(keys.resultsChannel, JSON.stringify(message)).exec();
}
