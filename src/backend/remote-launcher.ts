import { randomUUID } from 'node:crypto';
import { Observable, Subscription } from 'rxjs';
import type { ChildLauncher, ChildRun } from '../delegation/run-child.js';
import type { LauncherWiring } from '../engine/harness-backend.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { BackendParts } from './backend-parts.js';
import { badEntryWarnings } from './bad-entry-warnings.js';
import { watchJob, WorkersPulling } from './job-watch.js';
import { answerAsks } from './launcher-asks.js';
import { redisFailure } from './redis-connection.js';
import { RemoteTaskError } from './remote-task-error.js';
import { RunAskRoom } from './run-ask-room.js';
import type { TaskJob } from './task-job.js';
import { toWire } from './wire-spec.js';

/**
 * Runs children on workers: creates the child's event log, listens for the approvals its
 * worker asks, follows the log, and only then queues the job, so nothing the worker writes
 * can be missed. The events come out as the worker's `run$` emitted them; the log's end
 * completes (or errors) the stream. Unsubscribing cancels the job wherever it is: removed
 * while it waits, stopped through the cancel channel once a worker runs it.
 *
 * A worker that dies is noticed by BullMQ's lock on its job lapsing (`stallMs`: the worker
 * renews it while it lives): the stream errors with a `RemoteTaskError` saying so, which the
 * task turns into a failure result.
 *
 * @internal
 */
export class RemoteLauncher implements ChildLauncher {
  /** Asked for all of this launcher's waiting tasks at once (`WorkersPulling`). */
  readonly #workers: WorkersPulling;
  /** The approvals relayed from this launcher's jobs that wait, per run: a run's are bounded together. */
  readonly #asks = new RunAskRoom();

  constructor(
    private readonly parts: BackendParts,
    private readonly wiring: LauncherWiring,
  ) {
    this.#workers = new WorkersPulling(parts);
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
      const fail = (e: unknown): void => {
        if (closed) return;
        ended = true;
        out.error(RemoteTaskError.isInstance(e) ? e : redisFailure('running a task on a worker', e));
      };
      const onAsk = answerAsks(parts, this.wiring, child, this.#asks, withdraw.signal);
      const start = async (): Promise<void> => {
        const spec = toWire(child.spec, this.wiring);
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
              out.next(entry.event);
            },
            error: (e: unknown) => {
              // Ended cancelled without this launcher asking: its worker obeyed a cancel by task id
              // itself (see `obeyCancel`); the task is recorded cancelled, as a cancel here would.
              if ((e as Error).name === 'AbortError' && !closed) {
                ended = true; // nothing left to stop on the worker
                if (child.tracker.cancel(child.taskId)) return;
              }
              fail(e);
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
        if (!closed) watch = watchJob(parts, logId, { started: () => started, fail, cancel: () => void this.#cancel(logId), workers: this.#workers });
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

  /** Stops the job: marked (for a worker about to take it), announced, removed if it still waits. */
  async #cancel(logId: string): Promise<void> {
    const { redis, keys } = this.parts;
    try {
      await redis.multi().set(keys.cancelled(logId), '1', 'PX', 10 * 60_000).publish(keys.cancelChannel, logId).exec();
      const queue = await this.parts.queue();
      // A job no worker took yet: gone from the queue, its log ended here (nobody else will).
      const removed = await queue.remove(logId).catch(() => 0);
      if (removed) await this.parts.eventLog.end(logId, { kind: 'cancelled', reason: 'the task was cancelled before a worker took it' });
    } catch {
      // Redis is gone: the worker's own reads fail, and its job's lock lapses.
    }
  }
}
