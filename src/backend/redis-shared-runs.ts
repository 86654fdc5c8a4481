import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ApprovalDecision } from '../permission/approval.js';
import { ofTask } from '../runs/pending-approvals.js';
import type { RunOwner, SharedRunRecord, SharedRuns } from '../runs/shared-runs.js';
import { awaitVerdict } from './answer-wait.js';
import type { ChannelHub } from './channel-hub.js';
import { followRuns } from './follow-runs.js';
import type { RedisKeys } from './redis-keys.js';
import type { OwnedRecord } from './run-record.js';
import { pruneRunRecords, runningByOwner } from './run-records.js';
import type { RunMessage } from './runs-channel.js';
import { RunsPublisher } from './runs-publisher.js';

/** How long an answer sent to another instance waits for its owner's verdict by default (an owner gone never gives one). */
export const ANSWER_WAIT_MS = 5000;

/**
 * {@link SharedRuns} on Redis: each record is kept in a hash (read once when the backend
 * starts, so an engine started later knows the runs already there) and published on a
 * channel, from which every engine keeps its copy current. Cancels and answers are
 * published too; each engine hands them to the registries it serves, and only the one
 * that runs the run acts. An answer waits for that owner's verdict: of two engines
 * answering one approval at once, the owner's first-come check lets exactly one win, and
 * the other learns it lost. An answer the owner does not claim within the wait (it is busy,
 * stopped or gone) is withdrawn atomically, so it is never applied later, and its sender
 * is told so (`AnswerNotAppliedError`) rather than a bare "not taken" (answer-wait.ts). Each
 * record names the instance (backend) that owns it, so a run whose instance died can be found
 * and ended (see `dead-owner-sweep.ts`). The channel's messages are applied by runs-channel.ts,
 * none on its word alone; the copy follows them (follow-runs.ts), and our changes go out
 * through runs-publisher.ts.
 *
 * @internal
 */
export class RedisSharedRuns implements SharedRuns {
  readonly #records = new Map<string, OwnedRecord>();
  /**
   * The runs this instance publishes (its registry runs them): their records here are the
   * truth, whatever the channel says. Anyone with access to the Redis can publish there.
   */
  readonly #own = new Set<string>();
  readonly #owners = new Set<RunOwner>();
  /** Who hears of other engines' records changing here (`watch`). */
  readonly #watchers = new Set<(runId: string) => void>();
  /** Answers sent to other instances, waiting for their owner's verdict. */
  readonly #verdicts = new Map<string, (ok: boolean) => void>();
  readonly #publisher: RunsPublisher;

  private constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** The instance publishing through this copy. */
    readonly instanceId: string,
    /** How long an answer sent to another instance waits for its owner to claim it. */
    private readonly answerWaitMs: number,
  ) {
    this.#publisher = new RunsPublisher(redis, keys);
  }

  /**
   * Loads the runs Redis knows (skipping records that are not records) and follows their
   * changes. Rejects when Redis fails the load, having let go of the channel first.
   */
  static async create(redis: Redis, keys: RedisKeys, hub: ChannelHub, instanceId: string, answerWaitMs = ANSWER_WAIT_MS): Promise<{ runs: RedisSharedRuns; stop: () => void }> {
    const runs = new RedisSharedRuns(redis, keys, instanceId, answerWaitMs);
    const copy = { records: runs.#records, own: runs.#own, owners: runs.#owners, verdicts: runs.#verdicts };
    const stop = await followRuns(hub, { redis, keys, instanceId, ...copy, reassert: (runId) => runs.#reassert(runId), changed: (runId) => runs.#changed(runId) });
    return { runs, stop };
  }

  publish(record: SharedRunRecord): void {
    this.#own.add(record.info.runId);
    this.#put({ ...record, owner: this.instanceId });
  }

  forget(runId: string): void {
    this.#own.delete(runId);
    this.#records.delete(runId);
    this.#publisher.forget(runId);
  }

  get(runId: string): SharedRunRecord | undefined {
    const record = this.#records.get(runId);
    if (record?.retainUntil !== undefined && record.retainUntil <= Date.now()) {
      this.#records.delete(runId);
      return undefined;
    }
    return record;
  }

  list(): readonly SharedRunRecord[] {
    return [...this.#records.keys()].flatMap((id) => this.get(id) ?? []);
  }

  cancel(runId: string): boolean {
    if (this.get(runId)?.info.state !== 'running') return false;
    this.#publisher.cancel(runId); // the marker first, in one transaction: the owner reads it back before it cancels
    return true;
  }

  /**
   * Sends an answer to the run's owner; false when the approval is not known to wait there.
   * Resolves with the owner's verdict (false: another answer came first); rejects with
   * `AnswerNotAppliedError` when the owner did not claim it in time (then it was withdrawn and
   * is never applied) or claimed it and never said whether it applied it.
   */
  answer(runId: string, approvalId: string, decision: ApprovalDecision, taskId?: string | null): Promise<boolean> | false {
    if (!this.get(runId)?.pending.some((p) => p.approvalId === approvalId && ofTask(p, taskId))) return false;
    const requestId = randomUUID();
    const message: RunMessage = { op: 'answer', runId, approvalId, decision, requestId, claim: true, ...(taskId !== undefined ? { taskId } : {}) };
    // A run reaped (its owner died) or ended meanwhile: the answer is settled as not pending at once.
    const watchEnd = (onEnd: () => void): (() => void) => this.watch((id) => void (id === runId && this.get(runId)?.info.state !== 'running' && onEnd()));
    return awaitVerdict(this.redis, this.keys, this.#verdicts, { runId, approvalId, requestId, message: JSON.stringify(message) }, this.answerWaitMs, watchEnd);
  }

  watch(listener: (runId: string) => void): () => void {
    this.#watchers.add(listener);
    return () => this.#watchers.delete(listener);
  }

  serve(owner: RunOwner): () => void {
    this.#owners.add(owner);
    return () => this.#owners.delete(owner);
  }

  /**
   * Forgets the records past their retention, here and in Redis (a hash field does not
   * expire by itself). Called by the backend now and then, so idle engines do not keep them.
   */
  prune(): void {
    pruneRunRecords(this.redis, this.keys, this.#records);
  }

  /** The running runs of other instances, by owner. */
  runningOfOthers(): Map<string, string[]> {
    return runningByOwner(this.#records, this.instanceId);
  }

  /** Records a dead instance's run as failed, kept `retentionMs` (the caller ended its log). */
  markFailed(runId: string, retentionMs: number): void {
    const record = this.#records.get(runId);
    if (!record) return;
    const now = Date.now();
    this.#put({ ...record, info: { ...record.info, state: 'failed', endedAt: now }, pending: [], retainUntil: now + retentionMs });
    this.#changed(runId);
  }

  /** Tells the watchers another engine's record changed; one that throws stops no other. */
  #changed(runId: string): void {
    for (const listener of [...this.#watchers]) {
      try {
        listener(runId);
      } catch {
        // The record is kept; a watcher's failure is its own.
      }
    }
  }

  /** Publishes our record of our own run again, over a forged one. */
  #reassert(runId: string): void {
    const record = this.#records.get(runId);
    if (record) this.#put(record);
  }

  #put(record: OwnedRecord): void {
    this.#records.set(record.info.runId, record);
    this.#publisher.put(record);
  }
}
