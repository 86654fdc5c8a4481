import { defer, Subject, takeUntil, type Observable, type Subscription } from 'rxjs';
import { AbortError } from '../errors/abort-error.js';
import { runResultOf } from '../agent/run-result.js';
import type { RunResult } from '../agent/run-types.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { ApprovalDecision } from '../permission/approval.js';
import { errorIdentity } from '../errors/error-identity.js';
import { eventBytes } from './event-bytes.js';
import { ApprovalWatchers } from './approval-watchers.js';
import { PendingApprovals } from './pending-approvals.js';
import type { PendingApproval, RunInfo, SequencedEvent } from './run-types.js';
import type { RunOrigin } from './shared-runs.js';
import type { RunRegistryOptions } from './run-registry-options.js';
import { UnknownRunError } from './unknown-run-error.js';
import { checkAfter } from './check-after.js';
import { CoalescedPublishes } from './coalesced-publishes.js';
import { RunsBySession } from './runs-by-session.js';
import { ended, quietly } from './registry-helpers.js';

/** A run started with `engine.start()`: hot, registered, attachable. */
export interface RunHandle {
  /** The run's id, known before its first event. */
  readonly runId: string;
  /** The conversation it belongs to (given, or new and kept). */
  readonly sessionId: string;
  /** `engine.runs.attach(runId)`: every event from the first, then live. */
  readonly events$: Observable<SequencedEvent>;
  /** Resolves with the run's result at its `RunEnd`; rejects with `AbortError` when it is cancelled. */
  readonly result: Promise<RunResult>;
  /** Cancels the run (as `engine.runs.cancel(runId)`). */
  cancel(): void;
}

interface Entry {
  info: RunInfo;
  subscription: Subscription | undefined;
  /** Stops the run, even while its subscription is still being made. */
  stop: () => void;
  /** Rejects the handle's `result` (a cancel). */
  reject: (error: unknown) => void;
  /** About how many bytes its events hold in the log. */
  bytes: number;
  /**
   * When it ended on the monotonic clock (`performance.now()`), which expiry reads: the wall
   * clock of `info.endedAt` may be set back or forward, and a finished run must still be
   * kept for `retentionMs` of real time, neither an hour more nor expired at once.
   */
  endedTick: number;
  /** Who started it, when a protocol's client continues it between requests (`markOrigin`). */
  origin?: RunOrigin;
}

/**
 * The runs an engine has started (`engine.runs`): each is subscribed once, hot, its events
 * numbered and appended to the event log, so any number of consumers can attach from any
 * position; unsubscribing an attachment never stops the run, `cancel` does. Finished runs are
 * kept for `retentionMs` and at most `maxRetained` of them, evicted lazily (no timer is left
 * behind). Approvals asked anywhere in a started run's tree can be answered here.
 */
export class RunRegistry {
  readonly #runs = new Map<string, Entry>();
  /** `#runs` by session id, added and removed with them: `forgetSession` walks one conversation's runs only. */
  readonly #bySession = new RunsBySession<Entry>();
  /**
   * Approvals waiting in started runs, answerable by `answer`.
   *
   * @internal
   */
  readonly approvals = new PendingApprovals((runId) => {
    this.#publishes.soon(runId);
    this.approvalWatchers.notify(runId);
  });
  /** Who hears of changes to a run's waiting approvals ({@link RunRegistry.watchApprovals}). @internal */
  readonly approvalWatchers = new ApprovalWatchers();
  /**
   * The publishes of our runs' records: an approval's change is batched with the others of
   * the same turn (a burst of N was N records of up to N approvals each); a start and an end
   * go at once.
   */
  readonly #publishes = new CoalescedPublishes((runId) => this.#publish(runId));
  /** Stops serving the other engines and hearing of their runs. */
  readonly #unserve: () => void;
  /** The sum of the kept runs' `bytes`. */
  #bytes = 0;
  /**
   * The kept finished runs, in the order they ended, each with its `bytes` when it ended, and
   * their sum: eviction reads these instead of copying every run at each start.
   */
  readonly #finished = new Map<Entry, number>();
  #finishedBytes = 0;

  constructor(private readonly o: RunRegistryOptions) {
    // Other engines' cancels and answers for our runs: only what runs here, never relayed again.
    const unserve = o.shared?.serve({
      cancel: (runId) => this.#runs.has(runId) && this.cancel(runId),
      answer: (runId, approvalId, decision, taskId) => this.approvals.answer(runId, approvalId, decision, taskId),
    });
    // Another engine's record of its run came: its waiting approvals may have changed. Ended, it has no more.
    const unwatch = o.shared?.watch?.((runId) => {
      this.approvalWatchers.notify(runId);
      if (this.get(runId)?.state !== 'running') this.approvalWatchers.drop(runId);
    });
    this.#unserve = () => {
      unserve?.();
      unwatch?.();
    };
  }

  /**
   * Starts `events$` hot under `runId` and returns its handle. A run that fails before its
   * first event (a busy session) is not registered: its error is thrown here.
   *
   * @internal
   */
  start(runId: string, sessionId: string, agentName: string, events$: Observable<AgentEvent>): RunHandle {
    this.#evict();
    let seq = 0;
    let failure: unknown;
    let settle!: { resolve: (r: RunResult) => void; reject: (e: unknown) => void };
    const result = new Promise<RunResult>((resolve, reject) => (settle = { resolve, reject }));
    const entry: Entry = { info: { runId, sessionId, agentName, state: 'running', startedAt: Date.now() }, subscription: undefined, stop: () => undefined, reject: settle.reject, bytes: 0, endedTick: 0 };
    this.#runs.set(runId, entry);
    this.#bySession.add(sessionId, entry);
    result.catch(() => undefined); // nobody may be waiting for it; a cancel must not be an unhandled rejection
    const finish = (state: RunInfo['state']): void => {
      if (entry.info.endedAt === undefined) this.#ended(entry);
      entry.info = ended(entry.info, state);
      this.approvals.failAll(runId, state === 'cancelled' ? 'the run was cancelled (fail-closed)' : 'the run ended');
      this.approvalWatchers.drop(runId);
      this.#publishes.now(runId);
    };
    // The subscription is held before the run starts: a synchronous run may cancel itself
    // (a tool calling `runs.cancel`) before `subscribe` returns, when there is no
    // subscription to unsubscribe yet. The cancel then reaches the run through `stopped`.
    const stopped = new Subject<void>();
    entry.stop = () => stopped.next();
    // Readable at once, though its first event may come later (a claim a shared store answers later).
    quietly(this.o.log.open?.(runId));
    entry.subscription = events$.pipe(takeUntil(stopped)).subscribe({
      next: (event) => {
        quietly(this.o.log.append({ runId, seq: ++seq, event }));
        const bytes = eventBytes(event);
        entry.bytes += bytes;
        this.#bytes += bytes;
        if (event.type === 'RunEnd') {
          finish(event.abnormal ? 'failed' : 'done');
          settle.resolve(runResultOf(event, sessionId));
        }
      },
      error: (error: unknown) => {
        failure = error;
        finish('failed');
        quietly(this.o.log.end(runId, { kind: 'failed', ...errorIdentity(error) }));
        settle.reject(error);
      },
      // A cancel completes the run early (takeUntil): its log ends as cancelled, not complete.
      complete: () => entry.info.state !== 'cancelled' && quietly(this.o.log.end(runId, { kind: 'complete' })),
    });
    if (seq === 0 && entry.info.state === 'failed') {
      this.#drop(entry);
      throw failure;
    }
    // After the first event's append: an engine that hears of the run finds its log.
    this.#publishes.now(runId);
    return { runId, sessionId, events$: this.attach(runId), result, cancel: () => void this.cancel(runId) };
  }

  /**
   * The run's events with `seq > after` (default 0: all), then live; completes after its
   * `RunEnd`. Errors with a `TypeError` for an `after` that is not a whole number of at least
   * 0, and with `UnknownRunError` for a run it does not know.
   */
  attach(runId: string, options: { after?: number } = {}): Observable<SequencedEvent> {
    return defer(() => {
      const after = checkAfter(options.after ?? 0, 'engine.runs.attach');
      this.#evict();
      // With shared runs the log decides: another engine's run may be newer than our copy of
      // its record (which comes over pub/sub), and reading an absent log is UnknownRunError.
      if (!this.#runs.has(runId) && !this.o.shared) throw new UnknownRunError(runId);
      return this.o.log.read(runId, after);
    });
  }

  /**
   * About how many bytes the events of the runs kept here hold (running and finished; an
   * estimate: strings at two bytes a character, text deltas as kept). Finished runs are
   * evicted, oldest first, to keep their share within `maxRetainedBytes`.
   */
  get retainedBytes(): number {
    this.#evict();
    return this.#bytes;
  }

  /** What is known about a run; `undefined` for an unknown or evicted one. */
  get(runId: string): RunInfo | undefined {
    this.#evict();
    return this.#runs.get(runId)?.info ?? this.o.shared?.get(runId)?.info;
  }

  /** The known runs, oldest first, optionally of one conversation. */
  list(filter: { sessionId?: string } = {}): RunInfo[] {
    this.#evict();
    const { sessionId } = filter;
    // One conversation's own runs from the index (each delete lists them), in the order they started, as `#runs` has them.
    const own = (sessionId === undefined ? [...this.#runs.values()] : this.#bySession.of(sessionId)).map((e) => e.info);
    const others = (this.o.shared?.list() ?? []).map((r) => r.info).filter((info) => !this.#runs.has(info.runId) && (sessionId === undefined || info.sessionId === sessionId));
    return others.length ? [...own, ...others].sort((a, b) => a.startedAt - b.startedAt) : own;
  }

  /** Cancels a running run: stops it (its model requests, tools and tasks) and ends its log. False if it is not running. */
  cancel(runId: string): boolean {
    const entry = this.#runs.get(runId);
    if (!entry) return this.o.shared?.cancel(runId) ?? false;
    if (entry.info.state !== 'running') return false;
    this.#ended(entry);
    entry.info = ended(entry.info, 'cancelled');
    entry.stop();
    entry.subscription?.unsubscribe();
    this.approvals.failAll(runId, 'the run was cancelled (fail-closed)');
    this.approvalWatchers.drop(runId);
    this.#publishes.now(runId);
    quietly(this.o.log.end(runId, { kind: 'cancelled', reason: 'the run was cancelled' }));
    entry.reject(new AbortError(new Error('the run was cancelled')));
    return true;
  }

  /**
   * Answers a waiting approval of the run (anywhere in its tree) by its `approvalId` (from
   * its `HITLPending` event, or {@link RunRegistry.pendingApprovals}). With `taskId` (`null`:
   * the main agent's own call) only an approval of that task is answered. False when no such
   * approval waits there. A model's call id is not accepted: it is not unique across tasks.
   * Another engine's run (on a shared backend): a promise of whether its owner took this
   * answer (false when another answer came first), so of two engines answering at once
   * exactly one hears true; it rejects with an `AnswerNotAppliedError` when the owner did
   * not take the answer in time (see that error for what each outcome means).
   */
  answer(runId: string, approvalId: string, decision: ApprovalDecision, taskId?: string | null): boolean | Promise<boolean> {
    if (this.approvals.answer(runId, approvalId, decision, taskId)) return true;
    return !this.#runs.has(runId) && (this.o.shared?.answer(runId, approvalId, decision, taskId) ?? false);
  }

  /** The approvals waiting anywhere in the run's tree, in the order they asked (another engine's run: as it last published them). */
  pendingApprovals(runId: string): PendingApproval[] {
    if (this.#runs.has(runId)) return this.approvals.pending(runId);
    return [...(this.o.shared?.get(runId)?.pending ?? [])];
  }

  /**
   * Notes that a run of ours was started by a protocol whose client continues it (an AG-UI
   * handler), and tells the engines sharing a backend: their AG-UI requests continue or cancel
   * only such runs. Nothing for another engine's run: its owner publishes its origin.
   *
   * @internal
   */
  markOrigin(runId: string, origin: RunOrigin): void {
    const entry = this.#runs.get(runId);
    if (entry === undefined || entry.origin === origin) return;
    entry.origin = origin;
    this.#publishes.now(runId);
  }

  /** Who started the run, as marked here ({@link RunRegistry.markOrigin}) or published by its owner; `undefined`: not known to be a protocol's. @internal */
  originOf(runId: string): RunOrigin | undefined {
    return this.#runs.get(runId)?.origin ?? this.o.shared?.get(runId)?.origin;
  }

  /**
   * Calls `listener` whenever the approvals waiting in a running run may have changed (one of
   * ours: at once, as an approval starts or stops waiting; another engine's: as its record
   * arrives), so a protocol that shows only waiting approvals rechecks on the signal rather
   * than on a timer. Returns its removal; when the run ends its listeners are dropped. A run
   * not known to be running gets no listener (it has no approval left to wait).
   *
   * @internal
   */
  watchApprovals(runId: string, listener: () => void): () => void {
    return this.get(runId)?.state === 'running' ? this.approvalWatchers.watch(runId, listener) : () => undefined;
  }

  /**
   * Forgets a run refused before its first event (its session held by another instance: a
   * shared store answers the claim after `start` returned, so, unlike a refusal here, it was
   * registered), here and on the shared backend: it never ran. What a start that tries again
   * does with each refusal it does not answer. False, nothing forgotten, for any other run.
   *
   * @internal
   */
  discardRefused(runId: string): boolean {
    const entry = this.#runs.get(runId);
    if (entry?.info.state !== 'failed' || entry.bytes !== 0) return false;
    this.#forget(entry);
    return true;
  }

  /**
   * Forgets the finished runs of a deleted conversation, with their event logs (here and on
   * the shared backend), so a new conversation of the id neither lists nor replays them. A
   * run still going is kept: it ends as it would, and retention evicts it later.
   *
   * @internal
   */
  forgetSession(sessionId: string): void {
    for (const entry of this.#bySession.of(sessionId)) if (entry.info.endedAt !== undefined) this.#forget(entry);
  }

  /**
   * How many sessions have runs kept here (finished runs past their retention evicted first):
   * the size of the index `forgetSession` reads, which no evicted or forgotten run stays in.
   *
   * @internal
   */
  get sessionCount(): number {
    this.#evict();
    return this.#bySession.size;
  }

  /**
   * Cancels every running run (what `engine.close()` does).
   *
   * @internal
   */
  cancelAll(): void {
    for (const [runId, entry] of this.#runs) if (entry.info.state === 'running') this.cancel(runId);
  }

  /**
   * Stops serving other engines' cancels and answers (what `engine.close()` does last).
   *
   * @internal
   */
  detach(): void {
    this.#unserve();
  }

  /** Tells the engines sharing a backend where a run of ours stands now. */
  #publish(runId: string): void {
    const entry = this.#runs.get(runId);
    if (!entry || !this.o.shared) return;
    const { endedAt } = entry.info;
    this.o.shared.publish({
      info: entry.info,
      pending: this.approvals.pending(runId),
      ...(endedAt !== undefined ? { retainUntil: endedAt + this.o.retentionMs } : {}),
      ...(entry.origin !== undefined ? { origin: entry.origin } : {}),
    });
  }

  /**
   * Drops finished runs past their retention, and the oldest (by start) beyond the count or
   * the bytes. O(1) when nothing is due: the oldest-started finished runs are walked only
   * while over a bound, and the expired ones are the first to have ended.
   */
  #evict(): void {
    const maxBytes = this.o.maxRetainedBytes ?? Infinity;
    const over = this.#finished.size - this.o.maxRetained;
    if (over > 0 || this.#finishedBytes > maxBytes) {
      // Oldest started first; once one is kept, none after it is over a bound (the count is
      // passed and the bytes only fell), so only expiry can drop those.
      let i = 0;
      for (const entry of this.#runs.values()) {
        if (entry.info.endedAt === undefined) continue;
        if (i++ >= over && this.#finishedBytes <= maxBytes) break;
        this.#forget(entry);
      }
    }
    // The map is in the order runs ended, so on a monotonic clock the first are the first to expire.
    const now = performance.now();
    for (const entry of this.#finished.keys()) {
      if (now - entry.endedTick <= this.o.retentionMs) break;
      this.#forget(entry);
    }
  }

  /** A run has just ended: counted among the finished ones, which eviction reads. */
  #ended(entry: Entry): void {
    entry.endedTick = performance.now();
    this.#finished.set(entry, entry.bytes);
    this.#finishedBytes += entry.bytes;
  }

  /** Evicts a finished run, here and from the engines sharing a backend. */
  #forget(entry: Entry): void {
    this.#drop(entry);
    this.o.shared?.forget(entry.info.runId);
  }

  /** Forgets a run and its log. */
  #drop(entry: Entry): void {
    this.#runs.delete(entry.info.runId);
    this.#bySession.remove(entry.info.sessionId, entry);
    this.#publishes.drop(entry.info.runId);
    this.#bytes -= entry.bytes;
    this.#finishedBytes -= this.#finished.get(entry) ?? 0;
    this.#finished.delete(entry);
    quietly(this.o.log.delete(entry.info.runId));
  }
}
