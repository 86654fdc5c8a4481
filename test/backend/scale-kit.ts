/**
 * A scaled-out deployment for tests: a real Redis, a delegation fixture (fake OpenAI
 * server, workspace, home), engines and in-process workers each with a backend of its own
 * (own connections, as separate processes would have), all closed by `close()`.
 *
 * @module
 */
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { redisBackend, type RedisBackend, type RedisBackendOptions } from '../../src/backend/redis-backend.js';
import { HarnessWorker, type HarnessWorkerOptions } from '../../src/backend/harness-worker.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { HarnessEngineOptions } from '../../src/engine/engine-options.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { AgentDefinition } from '../../src/subagent/agent-definition.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { heartbeats, type Heartbeats } from './heartbeats.js';
import { startRedis, type RedisServer } from './redis-server.js';

/** Everything a test of the scaled-out engine needs. */
export interface ScaleKit {
  readonly fixture: DelegationFixture;
  readonly prefix: string;
  /** A backend on the kit's Redis and prefix (closed by `close`). */
  backend(options?: Partial<RedisBackendOptions>): Promise<RedisBackend>;
  /** An engine with a backend of its own and `agents` added. */
  engine(options?: Partial<HarnessEngineOptions>, agents?: readonly AgentDefinition[], backend?: RedisBackend): Promise<HarnessEngine>;
  /** An in-process worker with a backend of its own, ready. */
  worker(options?: Partial<HarnessWorkerOptions>, backend?: RedisBackend): Promise<HarnessWorker>;
  /** Counts the beats of the keys matching `pattern` on the kit's Redis (see `heartbeats.ts`; stopped by `close`). */
  heartbeats(pattern: string): Promise<Heartbeats>;
  close(): Promise<void>;
}

let prefixes = 0;

/** Starts a kit on `redis`, with backends whose heartbeats lapse after `stallIntervalMs`. */
export async function startScaleKit(redis: RedisServer, stallIntervalMs = 1000): Promise<ScaleKit> {
  const fixture = await startDelegationFixture();
  const prefix = `t${process.pid}_${++prefixes}`;
  const closers: (() => Promise<void>)[] = [];
  let closing: Promise<void> | undefined;
  const backend = async (options: Partial<RedisBackendOptions> = {}): Promise<RedisBackend> => {
    const made = await redisBackend({ url: redis.url, prefix, stallIntervalMs, ...options });
    closers.push(() => made.close());
    return made;
  };
  return {
    fixture,
    prefix,
    backend,
    engine: async (options = {}, agents = [], given) => {
      const engine = fixture.engine({ backend: given ?? (await backend()), ...options }, agents);
      closers.push(() => engine.close());
      return engine;
    },
    worker: async (options = {}, given) => {
      const worker = new HarnessWorker({ model: fixture.model(), workspace: fixture.workspace.dir, homeDir: fixture.home, backend: given ?? (await backend()), ...options });
      closers.push(() => worker.close());
      await worker.ready;
      return worker;
    },
    heartbeats: async (pattern) => {
      const beats = await heartbeats(redis.url, pattern);
      closers.push(async () => beats.close());
      return beats;
    },
    // Once, however often it is called (a test may close its kit before the file does).
    close: () =>
      (closing ??= (async () => {
        // Engines and workers first (pushed after their backends), then the backends.
        for (const close of closers.reverse()) await close().catch(() => undefined);
        await fixture.close();
      })()),
  };
}

/** A test file's Redis and the kits its tests start. */
export interface ScaleKits {
  /** The file's Redis (started before its first test, stopped after its last). */
  readonly redis: RedisServer;
  /** A kit on the file's Redis, closed after the test that started it. */
  kit(stallIntervalMs?: number): Promise<ScaleKit>;
}

/**
 * Registers, in the calling `describe`, one Redis (started with `redisArgs`, see
 * `startRedis`) for its tests and the closing of every kit a test starts, whatever the
 * test's outcome.
 */
export function useScaleKits(redisArgs: readonly string[] = []): ScaleKits {
  let redis: RedisServer | undefined;
  const open: ScaleKit[] = [];
  beforeAll(async () => {
    redis = await startRedis(redisArgs);
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    for (const kit of open.splice(0)) await kit.close();
  });
  const started = (): RedisServer => {
    if (!redis) throw new Error('useScaleKits: Redis is not started yet (use it inside a test)');
    return redis;
  };
  return {
    get redis() {
      return started();
    },
    kit: async (stallIntervalMs) => {
      const kit = await startScaleKit(started(), stallIntervalMs);
      open.push(kit);
      return kit;
    },
  };
}

/** Every event of a run that completes. */
export function eventsOf(events$: Observable<AgentEvent>): Promise<AgentEvent[]> {
  return lastValueFrom(events$.pipe(toArray()));
}

/** A run's events as `type` or `TaskWrap(<task index>:<inner type>)`, ids left out, for comparing where children ran. */
export function shapeOf(events: readonly AgentEvent[]): string[] {
  return events.map((e) => (e.type === 'TaskWrap' ? `TaskWrap(${e.taskIndex}:${shapeOf([e.event])[0]!})` : e.type));
}

/**
 * Polls `check` every 10 ms until it holds; throws after `timeoutMs`. Not a time limit on what
 * is tested (how soon is bench/'s): long enough by default that a machine whose cores are busy
 * does not fail a condition that holds a few seconds late, short enough to fail with this
 * message before the test times out.
 */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('waitFor: the condition did not hold in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Resolves once every message published before it reached `backend`'s subscriber, and what
 * its readers asked Redis on the way was answered and applied: Redis answers a SUBSCRIBE
 * after what it pushed before, so listening on a channel of its own and stopping again is a
 * barrier; a result announced is read back from Redis (on the command connection, which
 * answers in order) before the mirror takes it, so a PING there, then a turn of the event
 * loop (every promise chain of those answers run), is a second one. Twice: a read-back is
 * coalesced (one in flight per result or note, see GoneChecks), so a message that came while
 * one was in flight is read once more, sent only when the first is answered, after the first
 * PING; the second PING is sent after it.
 */
export async function caughtUp(backend: RedisBackend): Promise<void> {
  const stop = await backend.parts.hub.listen(`${backend.parts.keys.prefix}:barrier`, () => undefined);
  stop();
  for (let round = 0; round < 2; round++) {
    await backend.parts.redis.ping();
    await new Promise((resolve) => setImmediate(resolve));
  }
}
