import { randomUUID } from 'node:crypto';
import type { Worker } from 'bullmq';
import type { ReActAgent } from '../agent/react-agent.js';
import { resolveWorkspace } from '../agent/resolve-workspace.js';
import type { AgentSpec } from '../delegation/delegation-types.js';
import { buildTree, type Tree } from '../engine/build-tree.js';
import { checkEngineOptions, type HarnessEngineOptions } from '../engine/engine-options.js';
import { errorIdentity } from '../errors/error-identity.js';
import type { LogEnding } from '../runs/run-types.js';
import { bounded } from './bounded.js';
import { loadBullMQ } from './load-peers.js';
import type { RedisBackend } from './redis-backend.js';
import { TASK_QUEUE } from './redis-keys.js';
import type { TaskJob } from './task-job.js';
import { fromWire } from './wire-spec.js';
import { workerRulesPolicy } from './worker-bound-policy.js';
import type { PermissionPolicy } from '../permission/permission-policy.js';
import { checkedBudget, RedisTokenBudget } from './redis-budget.js';
import type { SharedBudget, TokenBudget } from '../model/token-budget.js';
import { backgroundResult, deliverResult } from './background-result.js';
import { publishResult } from './shared-results.js';
import { workerApprovals, type WorkerApprovals } from './worker-approvals.js';
import { runJob, STOP_REASON, type RunningJob } from './worker-job.js';
import { keepPresent } from './worker-presence.js';
import { lapseMs } from './worker-lapse.js';
import { workerGrantStore, type WorkerGrantStore } from './worker-grant-store.js';
import { watchLauncher } from './launcher-watch.js';
import { cancelledWhileQueued, markBackgroundJob, obeyCancel } from './orphan-background.js';

/**
 * Options of a {@link HarnessWorker}: an engine's options (its models, tools, rules,
 * definitions and workspace must match the engines', since a task names them), a backend,
 * and how many tasks to run at once. What only a run's owner uses (`approve`, runs,
 * sessions, event logs) is not among them.
 */
export interface HarnessWorkerOptions
  extends Omit<HarnessEngineOptions, 'sessions' | 'eventLog' | 'backend' | 'distributeTasks' | 'approve' | 'runRetentionMs' | 'maxRetainedRuns' | 'maxRetainedRunBytes'> {
  /** The backend of the engines whose tasks it runs. */
  readonly backend: RedisBackend;
  /** Tasks run at once; default 10. */
  readonly concurrency?: number;
}

const CANCELLED: LogEnding = { kind: 'cancelled', reason: STOP_REASON.cancelled };

/**
 * Runs delegated tasks pulled from the backend's queue: each child is rebuilt from the spec
 * its engine sent (same narrowing, rules, step bound, tools by name, model by name) and run
 * in its task's session; the worker's own `permissionRules` bound every job's rules (its
 * denies always win, its asks still ask: a job, which anyone writing to the queue could
 * forge, may narrow what they allow, never widen it); its events go to its event log, where the engine that delegated it
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
  readonly #running = new Map<string, RunningJob>();
  readonly #stops: (() => void)[] = [];
  /** Where its tasks' "always" approvals are read and kept (see `workerGrantStore`). */
  readonly #grants: WorkerGrantStore;
  /** This worker's own `permissionRules`: every job's policy is bounded by them (see `WorkerBoundPolicy`). */
  readonly #rules: PermissionPolicy | undefined;
  /** Where each job's approvals go: its own launcher (see `#agentOf`). */
  readonly #approvals: WorkerApprovals;
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
    const approvals = (this.#approvals = workerApprovals(backend.parts, this.workerId));
    // Grandchildren run here, in-process, in the same shared sessions. Their approvals go where
    // their job's do (the handler bound to it in `#agentOf`): the tree's own is for none.
    this.#tree = buildTree({ ...engineOptions, sessions: backend.sessions }, this.workspace, approvals.unbound);
    // Parsed once, by the tree, as an engine's: a job may narrow what they allow, never widen it.
    this.#rules = workerRulesPolicy(this.#tree.main.policy.rules);
    this.#grants = workerGrantStore(backend.parts, backend.sessions, () => [...this.#running.values()].map((j) => j.rootRunId));
    // A grandchild's background result has no prompt here to go in front of: it goes where the
    // conversation's next prompt finds it, on any engine (and is not kept here, for nobody).
    const tasks = this.#tree.tasks;
    tasks.changes.subscribe((info) => {
      if (!info.background || info.state === 'running' || info.state === 'queued') return;
      for (const result of tasks.takeUndelivered(info.sessionId)) publishResult(backend.parts.redis, backend.parts.keys, result).catch(() => undefined);
    });
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
      // Before BullMQ's close, which forgets the jobs it runs: each processor's signal aborts.
      this.#bull?.cancelAllJobs(STOP_REASON.shutDown);
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
    this.#stops.push(await parts.hub.listen(parts.keys.cancelChannel, (id) => this.#onCancel(id)));
    const { Worker } = await loadBullMQ();
    if (this.#closing) return;
    const stall = parts.stallMs;
    // Three parameters: BullMQ gives the processor an AbortSignal, which `cancelJob` aborts.
    const worker = new Worker<TaskJob>(TASK_QUEUE, (job, _token, signal) => this.#run(job.data, signal ?? new AbortController().signal), {
      // BullMQ's blocking connection must retry forever: a worker outlives a Redis restart.
      connection: { url: parts.url, maxRetriesPerRequest: null },
      prefix: parts.keys.bull,
      concurrency: this.#options.concurrency ?? 10,
      // BullMQ's lock on a job is its worker's heartbeat (launchers and the dead-owner sweep
      // read it): renewed while the worker lives, gone two stall intervals after it died (see
      // `lapseMs`). Its stalled-job check then fails the job, never runs it twice (a task is
      // not idempotent): a lock that lapsed on a live worker loses its task, so it must outlast
      // the worst lag of the worker's event loop (a flood of tasks keeps it busy).
      lockDuration: lapseMs(stall),
      // Renewed every quarter interval (BullMQ's default is every half of the lock's life): the
      // event loop may lag up to seven quarters of a stall interval before the lock lapses.
      lockRenewTime: Math.max(10, Math.floor(stall / 4)),
      stalledInterval: stall,
      maxStalledCount: 0,
    });
    worker.on('error', () => undefined); // connection trouble: BullMQ reconnects
    this.#bull = worker;
    await worker.waitUntilReady();
    // Pulling now: present to launchers until close (a killed worker lapses after two stall intervals).
    this.#leave = keepPresent(parts, this.workerId);
  }

  /**
   * A cancel: a job's id (from its launcher), or a background task's id (from an engine
   * that does not run it: the task's own engine may be dead, see `obeyCancel`). Either way
   * the job is stopped through BullMQ (`cancelJob` aborts its processor's signal). The
   * message comes on our channel: `cancelJob` reaches only jobs of the worker it is called on.
   */
  #onCancel(id: string): void {
    const bull = this.#bull;
    if (!bull || bull.cancelJob(id, STOP_REASON.cancelled)) return;
    for (const j of this.#running.values()) {
      if (j.background && j.taskId === id) obeyCancel(this.#backend.parts, j.logId, () => this.#running.get(j.logId) === j, () => bull.cancelJob(j.logId, STOP_REASON.cancelled));
    }
  }

  /**
   * The job's child: its approvals, and those of the children it delegates in-process here,
   * go to the job's own launcher (`logId`'s channel), and wait as long as the launching
   * engine's `approvalTimeoutMs` says (a number read from Redis: anything else leaves the
   * worker's own). Both are carried by the spec, so the worker's tree passes them down to
   * every child it builds from it.
   */
  #agentOf(spec: AgentSpec, logId: string, approvalTimeoutMs: unknown): ReActAgent {
    const engines = Number.isInteger(approvalTimeoutMs) && (approvalTimeoutMs as number) >= 1;
    const approve = this.#approvals.approveFor(logId);
    return this.#tree.factory.build({ ...spec, approve, ...(engines ? { approvalTimeoutMs: approvalTimeoutMs as number } : {}) });
  }

  /** Runs one job to its log's end; `signal` is BullMQ's for it. */
  async #run(job: TaskJob, signal: AbortSignal): Promise<void> {
    const parts = this.#backend.parts;
    const { redis, keys, eventLog } = parts;
    const { logId } = job;
    // The engine that delegated it decides how long its log is kept (a job from an older engine: ours).
    const keep = Number.isInteger(job.retentionMs) && job.retentionMs! > 0 ? job.retentionMs : undefined;
    await markBackgroundJob(parts, job);
    const stopWatching = job.spec.task?.background ? () => undefined : watchLauncher(parts, logId, () => this.#bull?.cancelJob(logId, STOP_REASON.orphaned));
    try {
      if (!this.#closing && !signal.aborted && !(await redis.exists(keys.cancelled(logId)))) {
        if (!(await cancelledWhileQueued(this.#backend.parts, job))) {
          const attachBudget = (shared: SharedBudget): TokenBudget => RedisTokenBudget.attach(redis, keys, checkedBudget(shared, keys), keys.budgetHeld(logId));
          const workerRules = this.#rules;
          const names = { model: this.#options.model, models: this.#options.models ?? {}, attachBudget, tools: this.#tree.knownTools };
          const spec = fromWire(job.spec, { ...names, ...(workerRules ? { workerRules } : {}) });
          // The conversation's grants as the store has them now (one read per job; the children
          // it runs here share them), never what this worker remembers from an earlier task: a
          // conversation deleted or expired since, then started again under its id, would find
          // them (even once its run ended: a background task). Only a run without a sessionId
          // has nothing in the store: what its tasks were granted here stays, or its next task
          // would ask again.
          const root = job.spec.task?.rootSessionId;
          if (root !== undefined && (await this.#grants.stored(root))) await this.#tree.grants.open(root, this.#grants);
          return await runJob(parts, job, this.#agentOf(spec, logId, job.approvalTimeoutMs), keep, this.#running, signal);
        }
        // Cancelled on an engine that does not run it: the record too, as its engine may be gone.
        await deliverResult(redis, keys, backgroundResult(job, job.spec.name, CANCELLED, undefined, job.taskStartedAt ?? Date.now()), job.queuedAt, keep ?? eventLog.retentionMs);
      }
      await eventLog.end(logId, { kind: 'cancelled', reason: 'the task was cancelled before it started' }, keep);
    } catch (e) {
      await eventLog.end(logId, { kind: 'failed', ...errorIdentity(e) }, keep).catch(() => undefined);
    } finally {
      stopWatching();
    }
  }
}
