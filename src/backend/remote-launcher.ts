import { randomUUID } from 'node:crypto';
import { Observable, Subscription } from 'rxjs';
import type { ChildLauncher, ChildRun } from '../delegation/run-child.js';
import type { LauncherWiring } from '../engine/harness-backend.js';
import { errorMessage } from '../errors/error-message.js';
import type { AgentEvent } from '../events/agent-event.js';
import { UnknownRunError } from '../runs/unknown-run-error.js';
import type { BackendParts } from './backend-parts.js';
import { badEntryWarnings } from './bad-entry-warnings.js';
import { watchJob, WorkersPulling } from './job-watch.js';
import { answerAsks } from './launcher-asks.js';
import { RedisBackendError } from './redis-backend-error.js';
import { redisFailure } from './redis-connection.js';
import { RemoteTaskError } from './remote-task-error.js';
import { RunAskRoom } from './run-ask-room.js';
import type { TaskJob } from './task-job.js';
import { CANCEL_MARK_MS, UnsentCancels } from './unsent-cancels.js';
import { endIfUnstarted } from './unstarted-log-end.js';
import { toWire, type WireSpec } from './wire-spec.js';

/**
 * Runs children on workers: creates the child's event log, listens for the approvals its
 * worker asks, follows the log, and only then queues the job, so nothing the worker writes
 * can be missed. The events come out as the worker's `run$` emitted them; the log's end
 * completes (or errors) the stream. Unsubscribing cancels the job wherever it is: removed
 * while it waits, stopped through the cancel channel once a worker runs it.
 *
 * A worker that dies is noticed by BullMQ's lock on its job lapsing (`stallMs`: the worker
 * renews it while it lives): the stream errors with a `RemoteTaskError` saying so, which the
 * task turns into a failure result; so does a log its worker ended failed (it shut down), in
 * the worker's words. A task that cannot be sent to a worker at all (its spec, e.g. a model
 * no worker can name) fails at once saying so, before anything is written. Only a failure of
 * Redis is said to be one. Any other failure (Redis unreachable from here: the
 * worker may run on) leaves the job to be cancelled as the consumer leaves, sent again once
 * Redis is back if it cannot be sent then (see `UnsentCancels`).
 *
 * @internal
 */
export class RemoteLauncher implements ChildLauncher {
  /** Asked for all of this launcher's waiting tasks at once (`WorkersPulling`). */
  readonly #workers: WorkersPulling;
  /** The approvals relayed from this launcher's jobs that wait, per run: a run's are bounded together. */
  readonly #asks = new RunAskRoom();
  readonly #unsent: UnsentCancels;

  constructor(
    private readonly parts: BackendParts,
    private readonly wiring: LauncherWiring,
  ) {
    this.#workers = new WorkersPulling(parts);
    this.#unsent = new UnsentCancels(parts.redis, (logId) => void this.#cancel(logId));
  }

  run$(child: ChildRun, streaming: boolean): Observable<AgentEvent> {
    return new Observable<AgentEvent>((out) => {
      const { parts } = this;
      const logId = `${child.taskId}.${randomUUID().slice(0, 8)}`;
      const reading = new Subscription();
      const withdraw = new AbortController();
      let closed = false;
      let ended = false;
      // The worker started the child: its first entry came (the open marker is not one).
      let started = false;
      let stopListening: (() => void) | undefined;
      let watch: NodeJS.Timeout | undefined;
      // `over`: nothing is left running on a worker (the log's own end; the worker's death, which
      // `watchJob` cancels itself). Any other failure (Redis unreachable from here, maybe not from
      // the worker) leaves the job to the cancel of the teardown.
      const fail = (e: unknown, over = false): void => {
        if (closed) return;
        if (over) ended = true;
        out.error(RemoteTaskError.isInstance(e) ? e : redisFailure('running a task on a worker', e));
      };
      // The log's own failed end: the worker's words (it shut down, the run failed there), no
      // failure of Redis, so not said to be one.
      const failedThere = (e: unknown): void => fail(RemoteTaskError.isInstance(e) ? e : new RemoteTaskError(errorMessage(e), { cause: e }), true);
      const onAsk = answerAsks(parts, this.wiring, child, this.#asks, withdraw.signal);
      const start = async (): Promise<void> => {
        let spec: WireSpec;
        try {
          spec = toWire(child.spec, this.wiring);
        } catch (e) {
          // No failure of Redis, and nothing sent yet: no log, no job, nothing to cancel.
          return fail(new RemoteTaskError(`the task cannot be sent to a worker: ${errorMessage(e)}`, { cause: e }), true);
        }
        const retentionMs = parts.eventLog.retentionMs;
        const timeout = this.wiring.approvalTimeoutMs;
        const job: TaskJob = {
          logId,
          spec,
          prompt: child.prompt,
          description: child.description,
          parentRunId: child.parent.runId,
          streaming,
          retentionMs,
          queuedAt: Date.now(),
          taskStartedAt: child.tracker.get(child.taskId)?.startedAt,
          ...(timeout === undefined ? {} : { approvalTimeoutMs: timeout }),
        };
        await parts.eventLog.open(logId, child.taskId);
        const stop = await parts.hub.listen(parts.keys.approvals(logId), onAsk);
        // Each step re-checks: the consumer may have left while it waited (the teardown ran).
        if (closed) return stop();
        stopListening = stop;
        const bad = badEntryWarnings(child, out);
        reading.add(
          parts.eventLog.read(logId, 0, bad.onBad).subscribe({
            next: (entry) => {
              started = true;
              bad.seen(entry.event);
              // Its run is over on the worker: the consumer leaving now (a task answers at its
              // RunEnd) cancels nothing, and the worker ends the log as it completes.
              if (entry.event.type === 'RunEnd') ended = true;
              out.next(entry.event);
            },
            error: (e: unknown) => {
              // Ended cancelled without this launcher asking: its worker obeyed a cancel by task id
              // itself (see `obeyCancel`); the task is recorded cancelled, as a cancel here would.
              if ((e as Error).name === 'AbortError' && !closed) {
                ended = true; // nothing left to stop on the worker
                if (child.tracker.cancel(child.taskId)) return;
              }
              // This side's reading failing makes errors of our classes; the log's own failed end,
              // errors rebuilt from its identity, which never are (see `errorOfIdentity`). The
              // backend closing is no outage: its background tasks outlive it, as its process's death.
              const here = e instanceof RedisBackendError || e instanceof UnknownRunError;
              if (here) fail(e, parts.eventLog.closed);
              else failedThere(e);
            },
            complete: () => {
              ended = true;
              out.complete();
            },
          }),
        );
        const queue = await parts.queue();
        if (closed) return;
        await queue.add('task', job, { jobId: logId, removeOnComplete: true, removeOnFail: true });
        if (!closed) watch = watchJob(parts, logId, { started: () => started, fail: (e) => fail(e, RemoteTaskError.isInstance(e)), cancel: () => void this.#cancel(logId), workers: this.#workers });
      };
      start().catch(fail);
      return () => {
        closed = true;
        clearInterval(watch);
        reading.unsubscribe();
        stopListening?.();
        withdraw.abort();
        if (!ended) void this.#cancel(logId);
      };
    });
  }

  /**
   * Stops the job: marked (for a worker about to take it), announced, removed if it still
   * waits. Redis unreachable: sent again once it is back; never throws, never waits for it.
   */
  async #cancel(logId: string): Promise<void> {
    const { redis, keys } = this.parts;
    try {
      // Not while the connection is down, and not in a MULTI: ioredis leaves the MULTI command's
      // own promise to reject unhandled ("Connection is closed.") when the connection closes with
      // it queued, whatever `exec()`'s handlers. A pipeline keeps the order (the mark, then the
      // message) on the one connection, each reply handled.
      if (redis.status !== 'ready') throw new Error('not connected');
      const replies = await redis.pipeline().set(keys.cancelled(logId), '1', 'PX', CANCEL_MARK_MS).publish(keys.cancelChannel, logId).exec();
      const failed = replies?.find(([error]) => error !== null);
      if (replies === null || failed !== undefined) throw failed?.[0] ?? new Error('not sent');
    } catch {
      // The worker may run on (its own connection fine): the cancel must reach it once Redis is back.
      return this.#unsent.failed(logId);
    }
    this.#unsent.sent(logId);
    try {
      const queue = await this.parts.queue();
      // Gone from the queue: a job no worker took yet, or one whose worker's lock lapsed (a live
      // worker on a busy event loop too). Its log is ended here only while no worker wrote to
      // it: one that started the job ends the log itself as it obeys the cancel.
      const removed = await queue.remove(logId).catch(() => 0);
      if (removed) await endIfUnstarted(this.parts, logId, { kind: 'cancelled', reason: 'the task was cancelled before a worker took it' });
    } catch {
      // Announced already: a worker that takes it finds the mark.
    }
  }
}
