import { randomUUID } from 'node:crypto';
import { Observable, Subscription } from 'rxjs';
import type { ChildLauncher, ChildRun } from '../delegation/run-child.js';
import type { LauncherWiring } from '../engine/harness-backend.js';
import { errorMessage } from '../errors/error-message.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { ApprovalDecision } from '../permission/approval.js';
import type { BackendParts } from './backend-parts.js';
import { redisFailure } from './redis-connection.js';
import { RemoteTaskError } from './remote-task-error.js';
import type { ApprovalAsk, ApprovalReply, TaskJob } from './task-job.js';
import { toWire } from './wire-spec.js';

const NOBODY: ApprovalDecision = { decision: 'reject', comment: 'no approval handler is configured (fail-closed)' };

/**
 * Runs children on workers: creates the child's event log, listens for the approvals its
 * worker asks, follows the log, and only then queues the job, so nothing the worker writes
 * can be missed. The events come out as the worker's `run$` emitted them; the log's end
 * completes (or errors) the stream. Unsubscribing cancels the job wherever it is: removed
 * while it waits, stopped through the cancel channel once a worker runs it.
 *
 * A worker that dies is noticed by its heartbeat lapsing (`stallMs`): the stream errors with
 * a `RemoteTaskError` saying so, which the task turns into a failure result.
 *
 * @internal
 */
export class RemoteLauncher implements ChildLauncher {
  constructor(
    private readonly parts: BackendParts,
    private readonly wiring: LauncherWiring,
  ) {}

  run$(child: ChildRun, streaming: boolean): Observable<AgentEvent> {
    return new Observable<AgentEvent>((out) => {
      const { parts } = this;
      const logId = `${child.taskId}.${randomUUID().slice(0, 8)}`;
      const reading = new Subscription();
      const withdraw = new AbortController();
      const asked = new Map<string, AbortController>();
      let closed = false;
      let ended = false;
      let stopListening: (() => void) | undefined;
      let watch: NodeJS.Timeout | undefined;
      const fail = (e: unknown): void => {
        if (closed) return;
        ended = true;
        out.error(RemoteTaskError.isInstance(e) ? e : redisFailure('running a task on a worker', e));
      };
      const onAsk = (text: string): void => {
        const message = JSON.parse(text) as ApprovalAsk;
        if (message.kind === 'withdraw') return asked.get(message.id)?.abort();
        const mine = new AbortController();
        asked.set(message.id, mine);
        withdraw.signal.addEventListener('abort', () => mine.abort(), { once: true, signal: mine.signal });
        const approve = this.wiring.approve;
        Promise.resolve()
          .then(() => (approve ? approve(message.request, { signal: mine.signal }) : NOBODY))
          .catch((e: unknown): ApprovalDecision => ({ decision: 'reject', comment: `the approval failed: ${errorMessage(e)} (fail-closed)` }))
          .then((decision) => {
            asked.delete(message.id);
            mine.abort(); // releases the listener on `withdraw`
            const reply: ApprovalReply = { id: message.id, decision };
            return parts.redis.publish(parts.keys.answers(message.replyTo), JSON.stringify(reply));
          })
          .catch(() => undefined); // the worker fails closed when no answer comes
      };
      const start = async (): Promise<void> => {
        const spec = toWire(child.spec, this.wiring);
        const job: TaskJob = { logId, spec, prompt: child.prompt, description: child.description, parentRunId: child.parent.runId, streaming };
        await parts.eventLog.open(logId);
        const stop = await parts.hub.listen(parts.keys.approvals(logId), onAsk);
        // Each step re-checks: the consumer may have left while it waited (the teardown ran).
        if (closed) return stop();
        stopListening = stop;
        reading.add(
          parts.eventLog.read(logId, 0).subscribe({
            next: (entry) => out.next(entry.event),
            error: fail,
            complete: () => {
              ended = true;
              out.complete();
            },
          }),
        );
        const queue = await parts.queue();
        if (closed) return;
        await queue.add('task', job, { jobId: logId, removeOnComplete: true, removeOnFail: true });
        if (!closed) watch = this.#watch(logId, fail);
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

  /** Fails the run when the worker that took the job stops beating. */
  #watch(logId: string, fail: (e: unknown) => void): NodeJS.Timeout {
    const { redis, keys, stallMs } = this.parts;
    let started = false;
    let checking = false;
    const timer = setInterval(
      () => {
        if (checking) return;
        checking = true;
        redis
          .exists(keys.beat(logId))
          .then((alive) => {
            if (alive) started = true;
            else if (started) {
              clearInterval(timer);
              fail(new RemoteTaskError(`the worker running it stopped: no heartbeat for ${stallMs} ms (it was killed, or lost its connection to Redis)`));
            }
          })
          .catch(fail)
          .finally(() => (checking = false));
      },
      Math.max(10, Math.floor(stallMs / 4)),
    );
    return timer;
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
