import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { TaskTracker } from '../delegation/task-tracker.js';
import type { TaskTrackerLimits } from '../delegation/task-tracker-limits.js';
import type { ChildLauncher } from '../delegation/run-child.js';
import type { HarnessBackend, LauncherWiring } from '../engine/harness-backend.js';
import type { BackendParts } from './backend-parts.js';
import { RedisTokenBudget } from './redis-budget.js';
import type { TokenBudget } from '../model/token-budget.js';
import { bounded } from './bounded.js';
import { ChannelHub } from './channel-hub.js';
import { sweepDeadOwners } from './dead-owner-sweep.js';
import { loadBullMQ } from './load-peers.js';
import { connectRedis, duplicateOf } from './redis-connection.js';
import { RedisEventLog } from './redis-event-log.js';
import { RedisKeys, TASK_QUEUE } from './redis-keys.js';
import { RedisSessionStore } from './redis-session-store.js';
import { RedisSharedRuns } from './redis-shared-runs.js';
import { RemoteLauncher } from './remote-launcher.js';
import { SharedResults } from './shared-results.js';
import { SharedTaskTracker } from './shared-tracker.js';
import { SharedTasks } from './shared-tasks.js';

const DEFAULT_RETENTION_MS = 10 * 60_000;

/** Options of {@link redisBackend}. Only `url` is required. */
export interface RedisBackendOptions {
  /** The Redis server, e.g. `redis://127.0.0.1:6379` (`rediss://` for TLS, `redis://:password@host`). */
  readonly url: string;
  /** Put before every key and channel, so deployments can share a server; default `rxh`. */
  readonly prefix?: string;
  /** How long a finished run's (or task's) event log, and a settled task's record, stay in Redis; default 10 minutes. */
  readonly retentionMs?: number;
  /**
   * The rhythm of the heartbeats; default 30 seconds. A worker renews BullMQ's lock on its
   * job every quarter of it, and is taken for dead (its task fails as "the worker running it
   * stopped", the lock lapsed) after two stall intervals without one, so a killed worker's
   * task fails within about two. The trade-off: it must exceed the worst lag of a worker's
   * event loop under load (a flood of tasks), or live workers lose their tasks. An app
   * instance's heartbeat lapses after two as well (its runs are then reaped by the others).
   */
  readonly stallIntervalMs?: number;
  /**
   * How long a session (its messages, task owner, grants) is kept after its last write;
   * default 30 days. Redis expires it then, like an evicted session of the in-memory store.
   */
  readonly sessionTtlMs?: number;
  /**
   * How long a run's lease on its session lasts without renewal; default 30 seconds. A run
   * renews it every third of this while it lives; when its process dies, the session is
   * free again this long after at most (until then other engines get `SessionBusyError`).
   */
  readonly sessionLeaseMs?: number;
  /**
   * How long to wait for Redis when connecting before failing; default 5 seconds. Also how long
   * a reader following a run's event log waits for Redis to answer again after its connection
   * dropped, before it ends saying Redis was unreachable.
   */
  readonly connectTimeoutMs?: number;
  /**
   * How long an answer to an approval of a run another instance owns waits for that
   * instance to claim it; default 5 seconds. Past it the answer is withdrawn (never applied)
   * and `runs.answer` rejects with `AnswerNotAppliedError` (HTTP `504`).
   */
  readonly answerWaitMs?: number;
}

/**
 * The Redis (and BullMQ) {@link HarnessBackend}: pass it to every `HarnessEngine` and
 * `HarnessWorker` that should share sessions, runs, event logs and tasks, and close it
 * after them.
 *
 * @example
 * ```ts
 * const backend = await redisBackend({ url: 'redis://127.0.0.1:6379' });
 * const engine = new HarnessEngine({ model, backend });
 * // ...
 * await engine.close();
 * await backend.close();
 * ```
 */
export class RedisBackend implements HarnessBackend {
  /** The sessions every engine and worker on this Redis shares (an engine's `sessions`). */
  readonly sessions: RedisSessionStore;
  /** The event logs of started runs and of tasks run on workers, as Redis Streams. */
  readonly eventLog: RedisEventLog;
  /** @internal */
  readonly runs: RedisSharedRuns;
  /** @internal */
  readonly parts: BackendParts;
  readonly #results: SharedResults;
  readonly #tasks: SharedTasks;
  readonly #stops: (() => void)[];
  #queue: Promise<Queue> | undefined;
  #closed = false;

  /** @internal */
  constructor(
    redis: Redis,
    hub: ChannelHub,
    keys: RedisKeys,
    shared: { runs: RedisSharedRuns; results: SharedResults; tasks: SharedTasks; stops: (() => void)[] },
    options: RedisBackendOptions,
  ) {
    const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    this.sessions = new RedisSessionStore(redis, keys, options.sessionTtlMs ?? 30 * 24 * 60 * 60_000, options.sessionLeaseMs ?? 30_000);
    this.eventLog = new RedisEventLog(redis, keys, {
      retentionMs: options.retentionMs ?? DEFAULT_RETENTION_MS,
      maxLiveMs: 24 * 60 * 60_000,
      blockMs: 1000,
      connectTimeoutMs,
    });
    this.runs = shared.runs;
    this.#results = shared.results;
    this.#tasks = shared.tasks;
    this.#stops = shared.stops;
    this.parts = {
      url: options.url,
      redis,
      hub,
      keys,
      eventLog: this.eventLog,
      stallMs: options.stallIntervalMs ?? 30_000,
      connectTimeoutMs,
      queue: () => (this.#queue ??= this.#openQueue()),
    };
    const retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    this.#stops.push(sweepDeadOwners(this.parts, this.runs, this.#tasks, retentionMs));
    // What every engine mirrors of the others' runs and tasks is dropped once past retention,
    // also by an engine nobody asks (its copies would otherwise only shrink when read).
    const tidy = setInterval(() => {
      this.runs.prune();
      this.#tasks.prune();
    }, Math.min(60_000, Math.max(1000, retentionMs / 2)));
    tidy.unref();
    this.#stops.push(() => clearInterval(tidy));
  }

  /** @internal */
  createTracker(limits?: TaskTrackerLimits): TaskTracker {
    // A delete waits for another engine's task of its conversation up to the lapse (two stall intervals).
    return new SharedTaskTracker(this.#results, this.#tasks, limits, this.parts.stallMs);
  }

  /** @internal */
  childLauncher(wiring: LauncherWiring): ChildLauncher {
    return new RemoteLauncher(this.parts, wiring);
  }

  /** @internal */
  newTokenBudget(limit: number): TokenBudget {
    return RedisTokenBudget.root(this.parts.redis, this.parts.keys, limit);
  }

  /** Closes every connection of the backend (close the engines and workers using it first). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const stop of this.#stops) stop();
    this.eventLog.closeReaders();
    const queue = await this.#queue?.catch(() => undefined);
    if (queue) await bounded(queue.close(), this.parts.connectTimeoutMs);
    this.parts.hub.close();
    this.parts.redis.disconnect();
  }

  async #openQueue(): Promise<Queue> {
    const { Queue } = await loadBullMQ();
    // A connection of its own that fails fast like the others (BullMQ's default retries forever).
    const connection = await duplicateOf(this.parts.redis, this.parts.connectTimeoutMs);
    const queue = new Queue(TASK_QUEUE, { connection, prefix: this.parts.keys.bull });
    queue.on('error', () => undefined); // failures reach the callers of add/remove
    // Closing the queue does not close a connection it was given.
    const close = queue.close.bind(queue);
    queue.close = async () => {
      await bounded(close(), this.parts.connectTimeoutMs);
      connection.disconnect();
    };
    return queue;
  }
}

/**
 * Connects to Redis and returns the backend every engine and worker of a deployment shares.
 *
 * @throws RedisBackendError when `ioredis` or `bullmq` is not installed, or Redis cannot be
 *   reached within `connectTimeoutMs`.
 *
 * @example
 * ```ts
 * const backend = await redisBackend({ url: 'redis://127.0.0.1:6379', prefix: 'myapp' });
 * const engine = new HarnessEngine({ model, backend, distributeTasks: true });
 * ```
 */
export async function redisBackend(options: RedisBackendOptions): Promise<RedisBackend> {
  if (typeof options?.url !== 'string' || options.url === '') throw new TypeError('redisBackend: `url` must be a Redis URL, e.g. redis://127.0.0.1:6379');
  const lease = options.sessionLeaseMs;
  if (lease !== undefined && (!Number.isInteger(lease) || lease < 30)) throw new TypeError(`redisBackend: \`sessionLeaseMs\` must be an integer of at least 30 (milliseconds), got ${String(lease)}`);
  const wait = options.answerWaitMs;
  if (wait !== undefined && (!Number.isInteger(wait) || wait < 1)) throw new TypeError(`redisBackend: \`answerWaitMs\` must be a positive integer (milliseconds), got ${String(wait)}`);
  const prefix = options.prefix ?? 'rxh';
  const timeout = options.connectTimeoutMs ?? 5000;
  await loadBullMQ(); // now, so a missing peer is reported at startup rather than at the first task
  const redis = await connectRedis(options.url, timeout);
  let hub: ChannelHub | undefined;
  try {
    hub = new ChannelHub(await duplicateOf(redis, timeout, { autoResubscribe: false }));
    const keys = new RedisKeys(prefix);
    const instanceId = `instance_${randomUUID()}`;
    const runs = await RedisSharedRuns.create(redis, keys, hub, instanceId, options.answerWaitMs);
    const results = await SharedResults.create(redis, keys, hub);
    const tasks = await SharedTasks.create(redis, keys, hub, options.retentionMs ?? DEFAULT_RETENTION_MS, instanceId);
    const stops = [runs.stop, results.stop, tasks.stop];
    return new RedisBackend(redis, hub, keys, { runs: runs.runs, results: results.results, tasks: tasks.tasks, stops }, options);
  } catch (e) {
    hub?.close();
    redis.disconnect();
    throw e;
  }
}
