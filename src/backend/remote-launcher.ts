import { randomUUID } from 'node:crypto';
import { Observable, Subscription, type Subscriber } from 'rxjs';
import type { ChildLauncher, ChildRun } from '../delegation/run-child.js';
import type { LauncherWiring } from '../engine/harness-backend.js';
import { errorMessage } from '../errors/error-message.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { ApprovalDecision } from '../permission/approval.js';
import type { BackendParts } from './backend-parts.js';
import { releaseHeldBudget } from './redis-budget.js';
import { redisFailure } from './redis-connection.js';
import { RemoteTaskError } from './remote-task-error.js';
import { isPlainObject, storedObject } from './stored-object.js';
import type { ApprovalAsk, ApprovalReply, TaskJob } from './task-job.js';
import { toWire } from './wire-spec.js';
import { liveWorkers } from './worker-presence.js';

/** How many skipped entries of one child's log each get a Warning (the rest are skipped silently). */
const MAX_BAD_ENTRY_WARNINGS = 5;

const NOBODY: ApprovalDecision = { decision: 'reject', comment: 'no approval handler is configured (fail-closed)' };

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
      // The worker started the child: its first entry came (the open marker is not one).
      let started = false;
      let stopListening: (() => void) | undefined;
      let watch: NodeJS.Timeout | undefined;
      const fail = (e: unknown): void => {
        if (closed) return;
        ended = true;
        out.error(RemoteTaskError.isInstance(e) ? e : redisFailure('running a task on a worker', e));
      };
      const onAsk = (text: string): void => {
        const message = approvalAsk(text);
        if (!message) return; // not what a worker publishes: nobody is asked
        if (message.kind === 'withdraw') return asked.get(message.id)?.abort();
        // A replay of a question still asked (anyone can publish here) would be refused as a
        // duplicate, and that refusal sent back as the answer to the real one.
        if (asked.has(message.id)) return;
        const mine = new AbortController();
        asked.set(message.id, mine);
        withdraw.signal.addEventListener('abort', () => mine.abort(), { once: true, signal: mine.signal });
        const approve = this.wiring.approve;
        Promise.resolve()
          // Whoever can publish here may name any run: the job's own tree is the only one it may ask in.
          .then(() => (approve ? approve({ ...message.request, rootRunId: child.parent.rootRunId }, { signal: mine.signal }) : NOBODY))
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
        if (!closed) watch = this.#watch(logId, () => started, fail);
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
   * Fails the run when no worker will run the job: the worker that runs it holds BullMQ's
   * lock on the job no more, and has not ended its log (it died: the lock is its heartbeat);
   * a worker took it and did not start it within a stall interval (the job is active, or
   * gone, and the child's first event never came: it died, or is not a worker of ours); or
   * it waits while no worker at all pulls from the queue, for a stall interval. A busy queue
   * with live workers is waited for, however long.
   */
  #watch(logId: string, started: () => boolean, fail: (e: unknown) => void): NodeJS.Timeout {
    const { redis, keys, stallMs, eventLog } = this.parts;
    const locked = async (): Promise<boolean> => (await redis.exists(keys.jobLock(logId))) === 1;
    let checking = false;
    let takenAt: number | undefined;
    let aloneAt: number | undefined;
    const give = async (why: string): Promise<void> => {
      clearInterval(timer);
      // What the worker's requests held of the pool comes back before the parent hears of
      // the failure: its next request, or a sibling's, may need it (Redis gone: nothing to give back to).
      await releaseHeldBudget(redis, keys, logId).catch(() => undefined);
      fail(new RemoteTaskError(why));
      void this.#cancel(logId); // out of the queue: no worker may start it after it failed here
    };
    const check = async (): Promise<void> => {
      if (started()) {
        // Its end written, the lock released: the end is on its way to this launcher's reader.
        if ((await locked()) || (await eventLog.ended(logId))) return;
        return give(`the worker running it stopped: no heartbeat for ${stallMs} ms (it was killed, or lost its connection to Redis)`);
      }
      const state = await (await this.parts.queue()).getJobState(logId);
      if (state === 'active') {
        takenAt ??= Date.now();
        if (Date.now() - takenAt > stallMs) await give(`a worker took it and stopped before starting it (no event from it for ${stallMs} ms)`);
        return;
      }
      takenAt = undefined;
      if (state === 'unknown' || state === 'completed' || state === 'failed') {
        // A job run and ended before this launcher's reader caught up: its entries are on their way.
        if (!started() && !(await eventLog.ended(logId))) await give('it left the queue without a worker starting it (the worker that took it stopped)');
        return;
      }
      if ((await this.#workersPulling()) !== 0) {
        aloneAt = undefined;
        return;
      }
      aloneAt ??= Date.now();
      if (Date.now() - aloneAt > stallMs) {
        await give(`no worker is pulling tasks from this Redis (prefix "${keys.prefix}") for ${stallMs} ms: start one with \`rxharness worker --redis URL --prefix ${keys.prefix}\``);
      }
    };
    const timer = setInterval(
      () => {
        if (checking) return;
        checking = true;
        check()
          .catch(fail)
          .finally(() => (checking = false));
      },
      Math.max(10, Math.floor(stallMs / 4)),
    );
    return timer;
  }

  #workers: { readonly at: number; readonly count: Promise<number | undefined> } | undefined;

  /**
   * How many workers pull from the queue: those that beat within a stall interval (their own
   * presence, not BullMQ's `getWorkersCount`, whose `CLIENT LIST` hosted Redis services often
   * refuse), asked at most once per quarter stall interval for all of this launcher's waiting
   * tasks; undefined when Redis fails to say: then a waiting task waits for the next check.
   */
  #workersPulling(): Promise<number | undefined> {
    const now = Date.now();
    if (!this.#workers || now - this.#workers.at > this.parts.stallMs / 4) {
      const count = liveWorkers(this.parts).catch(() => undefined);
      this.#workers = { at: now, count };
    }
    return this.#workers.count;
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

/**
 * Turns the entries of a child's log that its reader skipped (not events of the run, or out
 * of seq order: written by someone else than its worker) into `Warning` events of the child,
 * which its parent relays like any of its events; the first few only, so a flood of garbage
 * is not relayed as a flood of warnings.
 */
function badEntryWarnings(child: ChildRun, out: Subscriber<AgentEvent>): { onBad: (problem: string) => void; seen: (event: AgentEvent) => void } {
  let count = 0;
  // The child's run id once its RunStart came (the task id before).
  let runId = child.taskId;
  const seen = (event: AgentEvent): void => {
    if (event.type === 'RunStart') runId = event.runId;
  };
  const onBad = (problem: string): void => {
    if (++count > MAX_BAD_ENTRY_WARNINGS) return;
    const more = count === MAX_BAD_ENTRY_WARNINGS ? ' Further bad entries of this log are skipped without a warning.' : '';
    out.next({
      type: 'Warning',
      runId,
      agentName: child.agent.name,
      code: 'bad-log-entry',
      message: `Skipped an entry of the event log of task ${child.taskId} in Redis: ${problem}.${more}`,
    });
  };
  return { onBad, seen };
}

/** A worker's approval message read from its channel, or undefined when it is not one (anyone can publish there). */
function approvalAsk(text: string): ApprovalAsk | undefined {
  const v = storedObject(text);
  if (typeof v?.['id'] !== 'string') return undefined;
  if (v['kind'] === 'withdraw') return v as unknown as ApprovalAsk;
  const request = v['request'];
  const fine = v['kind'] === 'ask' && typeof v['replyTo'] === 'string' && isPlainObject(request) && typeof request['toolName'] === 'string';
  return fine ? (v as unknown as ApprovalAsk) : undefined;
}
