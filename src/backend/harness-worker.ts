import { randomUUID } from 'node:crypto';
import type { Worker } from 'bullmq';
import { resolveWorkspace } from '../agent/resolve-workspace.js';
import { buildTree, type Tree } from '../engine/build-tree.js';
import { checkEngineOptions, type HarnessEngineOptions } from '../engine/engine-options.js';
import { errorMessage } from '../errors/error-message.js';
import type { LogEnding } from '../runs/run-types.js';
import { bounded } from './bounded.js';
import { loadBullMQ } from './load-peers.js';
import type { RedisBackend } from './redis-backend.js';
import { TASK_QUEUE } from './redis-keys.js';
import type { TaskJob } from './task-job.js';
import { fromWire } from './wire-spec.js';
import { backgroundResult, deliverResult } from './background-result.js';
import type { RunEndEvent } from '../events/agent-event.js';
import { workerApprovals, type ActiveJob } from './worker-approvals.js';
import { keepPresent } from './worker-presence.js';

/**
 * Options of a {@link HarnessWorker}: an engine's options (its models, tools, rules,
 * definitions and workspace must match the engines', since a task names them), a backend,
 * and how many tasks to run at once. What only a run's owner uses (`approve`, runs,
 * sessions, event logs) is not among them.
 */
export interface HarnessWorkerOptions
  extends Omit<HarnessEngineOptions, 'sessions' | 'eventLog' | 'backend' | 'distributeTasks' | 'approve' | 'runRetentionMs' | 'maxRetainedRuns'> {
  /** The backend of the engines whose tasks it runs. */
  readonly backend: RedisBackend;
  /** Tasks run at once; default 10. */
  readonly concurrency?: number;
}

interface Running extends ActiveJob {
  readonly stop: (ending: LogEnding) => void;
}

/**
 * Runs delegated tasks pulled from the backend's queue: each child is rebuilt from the spec
 * its engine sent (same narrowing, rules, step bound, tools by name, model by name) and run
 * in its task's session; its events go to its event log, where the engine that delegated it
 * reads them. A cancel from the engine stops the run (model requests aborted, processes
 * killed); approvals its tools ask go to that engine. It starts pulling at once.
 *
 * @example
 * ```ts
 * const backend = await redisBackend({ url: 'redis://127.0.0.1:6379' });
 * const worker = new HarnessWorker({ model, backend, concurrency: 25 });
 * await worker.ready;
 * // ... on shutdown:
 * await worker.close();
 * await backend.close();
 * ```
 */
export class HarnessWorker {
  /** This worker's id (in its heartbeats and approval replies). */
  readonly workerId = `worker_${randomUUID()}`;
  /** The workspace, absolute with symlinks resolved. */
  readonly workspace: string;
  /** Resolves once the worker is pulling tasks; rejects when it cannot start (Redis unreachable). */
  readonly ready: Promise<void>;
  readonly #backend: RedisBackend;
  readonly #tree: Tree;
  readonly #options: HarnessWorkerOptions;
  readonly #running = new Map<string, Running>();
  readonly #stops: (() => void)[] = [];
  #leave: (() => Promise<void>) | undefined;
  #bull: Worker | undefined;
  #closing: Promise<void> | undefined;

  /** Checks every option now: an unknown or invalid one throws an error naming it. */
  constructor(options: HarnessWorkerOptions) {
    const { backend, concurrency, ...engineOptions } = options;
    if (typeof backend?.childLauncher !== 'function') throw new TypeError('HarnessWorker: `backend` must be a backend from redisBackend({ url })');
    if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1)) {
      throw new TypeError(`HarnessWorker: \`concurrency\` must be a positive integer, got ${String(concurrency)}`);
    }
    checkEngineOptions(engineOptions);
    this.#options = options;
    this.#backend = backend;
    this.workspace = resolveWorkspace(options.workspace);
    const approvals = workerApprovals(backend.parts, this.workerId, () => this.#running.values());
    // Grandchildren run here, in-process, in the same shared sessions.
    this.#tree = buildTree({ ...engineOptions, sessions: backend.sessions }, this.workspace, approvals.approve);
    this.ready = this.#start(approvals.onReply);
    this.ready.catch(() => undefined); // reported to whoever awaits `ready`; never unhandled
  }

  /** How many tasks run here now. */
  get running(): number {
    return this.#running.size;
  }

  /**
   * Stops pulling, fails the tasks running here ("the worker shut down"), and closes the
   * worker's own connections (not the backend's).
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.ready.catch(() => undefined);
      await this.#leave?.(); // first: a launcher waiting for a worker learns at once there is one fewer
      for (const job of [...this.#running.values()]) job.stop({ kind: 'failed', message: 'the worker running it shut down' });
      // Forced: the jobs were stopped just above; bounded: Redis may be gone.
      if (this.#bull) await bounded(this.#bull.close(true), this.#backend.parts.connectTimeoutMs);
      for (const stop of this.#stops.splice(0)) stop();
      await this.#tree.tasks.close();
      await this.#tree.mcp?.close();
    })();
    return this.#closing;
  }

  async #start(onReply: (text: string) => void): Promise<void> {
    const parts = this.#backend.parts;
    this.#stops.push(await parts.hub.listen(parts.keys.answers(this.workerId), onReply));
    this.#stops.push(await parts.hub.listen(parts.keys.cancelChannel, (logId) => this.#running.get(logId)?.stop({ kind: 'cancelled', reason: 'the task was cancelled' })));
    const { Worker } = await loadBullMQ();
    if (this.#closing) return;
    const stall = parts.stallMs;
    const worker = new Worker<TaskJob>(TASK_QUEUE, (job) => this.#run(job.data), {
      // BullMQ's blocking connection must retry forever: a worker outlives a Redis restart.
      connection: { url: parts.url, maxRetriesPerRequest: null },
      prefix: parts.keys.bull,
      concurrency: this.#options.concurrency ?? 10,
      // A task whose worker died fails (its launcher reports it); it is never run twice.
      lockDuration: stall,
      stalledInterval: stall,
      maxStalledCount: 0,
    });
    worker.on('error', () => undefined); // connection trouble: BullMQ reconnects
    this.#bull = worker;
    await worker.waitUntilReady();
    // Pulling now: present to launchers until close (a killed worker lapses after a stall interval).
    this.#leave = keepPresent(parts, this.workerId);
  }

  /** Runs one job to its log's end. */
  async #run(job: TaskJob): Promise<void> {
    const { redis, keys, stallMs, eventLog } = this.#backend.parts;
    const { logId } = job;
    // The engine that delegated it decides how long its log is kept (a job from an older engine: ours).
    const keep = Number.isInteger(job.retentionMs) && job.retentionMs! > 0 ? job.retentionMs : undefined;
    const beat = (): Promise<unknown> => redis.set(keys.beat(logId), this.workerId, 'PX', stallMs).catch(() => undefined);
    await beat();
    // A foreground child serves a parent that listens on its approvals channel: once nobody
    // has listened for two beats running (the engine died), the child stops.
    let unheard = 0;
    const orphaned = async (): Promise<boolean> => {
      if (job.spec.task?.background) return false;
      const reply = (await redis.pubsub('NUMSUB', keys.approvals(logId)).catch(() => undefined)) as [string, number] | undefined;
      unheard = reply && Number(reply[1]) === 0 ? unheard + 1 : 0;
      return unheard >= 2;
    };
    const beating = setInterval(() => {
      void beat();
      void orphaned().then((gone) => gone && this.#running.get(logId)?.stop({ kind: 'failed', message: 'the engine that delegated it is gone' }));
    }, Math.max(10, Math.floor(stallMs / 3)));
    try {
      if (this.#closing || (await redis.exists(keys.cancelled(logId)))) {
        await eventLog.end(logId, { kind: 'cancelled', reason: 'the task was cancelled before it started' }, keep);
        return;
      }
      const spec = fromWire(job.spec, { model: this.#options.model, models: this.#options.models ?? {} });
      const task = spec.task!;
      const agent = this.#tree.factory.build(spec);
      await new Promise<void>((resolve) => {
        let seq = 0;
        // Not awaited one by one: a connection keeps its commands in order, so the appends
        // land in seq order while the run goes on; the end waits for all of them.
        let writes: Promise<unknown> = Promise.resolve();
        let done = false;
        let end: RunEndEvent | undefined;
        const startedAt = Date.now();
        const finish = (ending: LogEnding): void => {
          if (done) return;
          done = true;
          this.#running.delete(logId);
          // A background result goes where any engine finds it and into the task's record (its
          // engine may be gone), before the log's end: a live engine, which records the task
          // once it reads that end, writes last.
          const result = task.background ? backgroundResult(job, spec.name, ending, end, startedAt) : undefined;
          const delivered = result && deliverResult(redis, keys, result, job.queuedAt, keep ?? eventLog.retentionMs).catch(() => undefined);
          writes = Promise.all([writes, delivered]).then(() => eventLog.end(logId, ending, keep)).catch(() => undefined);
          void writes.then(() => resolve());
        };
        const subscription = agent.run$(job.prompt, { sessionId: task.taskId, streaming: job.streaming }).subscribe({
          next: (event) => {
            if (event.type === 'RunEnd') end = event;
            writes = Promise.all([writes, eventLog.append({ runId: logId, seq: ++seq, event })]).catch(() => undefined);
          },
          error: (e: unknown) => finish({ kind: 'failed', message: errorMessage(e) }),
          complete: () => finish({ kind: 'complete' }),
        });
        if (done) return;
        this.#running.set(logId, {
          logId,
          taskId: task.taskId,
          rootRunId: task.rootRunId,
          stop: (ending) => {
            subscription.unsubscribe();
            finish(ending);
          },
        });
      });
    } catch (e) {
      await eventLog.end(logId, { kind: 'failed', message: errorMessage(e) }, keep).catch(() => undefined);
    } finally {
      clearInterval(beating);
    }
  }
}
