import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ApprovalDecision } from '../permission/approval.js';
import { AnswerNotAppliedError } from '../runs/answer-not-applied-error.js';
import { ofTask } from '../runs/pending-approvals.js';
import type { RunOwner, SharedRunRecord, SharedRuns } from '../runs/shared-runs.js';
import { answerState, claimAnswer, offerAnswer, settleAnswer, withdrawAnswer } from './answer-claim.js';
import type { ChannelHub } from './channel-hub.js';
import { loadHash } from './load-hash.js';
import { storedDecision } from './stored-decision.js';
import type { RedisKeys } from './redis-keys.js';
import { parseRunRecord, type OwnedRecord } from './run-record.js';

type RunMessage =
  | { readonly op: 'put'; readonly record: OwnedRecord }
  | { readonly op: 'forget'; readonly runId: string }
  | { readonly op: 'cancel'; readonly runId: string }
  // `claim`: the answer waits in Redis (answer-claim.ts) and the owner claims it before applying it.
  | { readonly op: 'answer'; readonly runId: string; readonly approvalId: string; readonly taskId?: string | null; readonly decision: ApprovalDecision; readonly requestId?: string; readonly claim?: boolean }
  | { readonly op: 'answered'; readonly requestId: string; readonly ok: boolean };

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
 * is told so (`AnswerNotAppliedError`) rather than a bare "not taken". Each record names the instance (backend) that owns it, so a run
 * whose instance died can be found and ended (see `dead-owner-sweep.ts`).
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
  /** Answers sent to other instances, waiting for their owner's verdict. */
  readonly #verdicts = new Map<string, (ok: boolean) => void>();

  private constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** The instance publishing through this copy. */
    readonly instanceId: string,
    /** How long an answer sent to another instance waits for its owner to claim it. */
    private readonly answerWaitMs: number,
  ) {}

  /** Loads the runs Redis knows (skipping records that are not records) and follows their changes. */
  static async create(redis: Redis, keys: RedisKeys, hub: ChannelHub, instanceId: string, answerWaitMs = ANSWER_WAIT_MS): Promise<{ runs: RedisSharedRuns; stop: () => void }> {
    const runs = new RedisSharedRuns(redis, keys, instanceId, answerWaitMs);
    const unlisten = await hub.listen(keys.runsChannel, (text) => runs.#onMessage(JSON.parse(text) as RunMessage));
    const stop = (): void => {
      unlisten();
      for (const settle of [...runs.#verdicts.values()]) settle(false); // no verdict comes any more
    };
    const now = Date.now();
    for (const text of Object.values(await loadHash(redis, keys.runs, 'the runs other engines started are not listed here, nor are this engine\'s runs shared'))) {
      const record = parseRunRecord(text);
      if (record && (record.retainUntil === undefined || record.retainUntil > now)) runs.#records.set(record.info.runId, record);
    }
    return { runs, stop };
  }

  publish(record: SharedRunRecord): void {
    this.#own.add(record.info.runId);
    this.#put({ ...record, owner: this.instanceId });
  }

  forget(runId: string): void {
    this.#own.delete(runId);
    this.#records.delete(runId);
    this.#send({ op: 'forget', runId }, this.redis.multi().hdel(this.keys.runs, runId));
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
    this.#send({ op: 'cancel', runId });
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
    const wait = this.answerWaitMs;
    const message: RunMessage = { op: 'answer', runId, approvalId, decision, requestId, claim: true, ...(taskId !== undefined ? { taskId } : {}) };
    return new Promise<boolean>((resolve, reject) => {
      let timer: NodeJS.Timeout;
      const end = (): boolean => {
        clearTimeout(timer);
        return this.#verdicts.delete(requestId);
      };
      const settle = (ok: boolean): void => void (end() && resolve(ok));
      const notApplied = (outcome: 'withdrawn' | 'unconfirmed', waited: number): void => void (end() && reject(new AnswerNotAppliedError(runId, approvalId, outcome, waited)));
      const verdictOf = (state: string): boolean | undefined => (state === 'taken' ? true : state === 'refused' ? false : undefined);
      // The owner claimed it and is applying it: its verdict comes, else it stopped midway.
      const unconfirmed = async (): Promise<void> => {
        const verdict = verdictOf(await answerState(this.redis, this.keys, requestId));
        if (verdict === undefined) notApplied('unconfirmed', 2 * wait);
        else settle(verdict);
      };
      const late = async (): Promise<void> => {
        const state = await withdrawAnswer(this.redis, this.keys, requestId);
        const verdict = verdictOf(state);
        if (verdict !== undefined) return settle(verdict); // its message is on its way
        if (state !== 'claimed') return notApplied('withdrawn', wait); // taken back, or never offered: never applied
        timer = setTimeout(() => void unconfirmed().catch(() => notApplied('unconfirmed', 2 * wait)), wait);
        timer.unref();
      };
      // Redis failing as it is withdrawn: whether the owner claimed it is not known.
      timer = setTimeout(() => void late().catch(() => notApplied('unconfirmed', wait)), wait);
      timer.unref();
      this.#verdicts.set(requestId, settle);
      offerAnswer(this.redis, this.keys, requestId, JSON.stringify(message)).catch(() => undefined); // the wait withdraws it
    });
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
    const now = Date.now();
    const gone = [...this.#records.values()].filter((r) => r.retainUntil !== undefined && r.retainUntil <= now).map((r) => r.info.runId);
    if (gone.length === 0) return;
    for (const runId of gone) this.#records.delete(runId);
    this.redis.hdel(this.keys.runs, ...gone).catch(() => undefined); // another engine may have pruned them first
  }

  /** The running runs of other instances, by owner. */
  runningOfOthers(): Map<string, string[]> {
    const byOwner = new Map<string, string[]>();
    for (const record of this.#records.values()) {
      if (record.info.state !== 'running' || record.owner === undefined || record.owner === this.instanceId) continue;
      byOwner.set(record.owner, [...(byOwner.get(record.owner) ?? []), record.info.runId]);
    }
    return byOwner;
  }

  /** Records a dead instance's run as failed, kept `retentionMs` (the caller ended its log). */
  markFailed(runId: string, retentionMs: number): void {
    const record = this.#records.get(runId);
    if (!record) return;
    const now = Date.now();
    this.#put({ ...record, info: { ...record.info, state: 'failed', endedAt: now }, pending: [], retainUntil: now + retentionMs });
  }

  /** Publishes our record of our own run again, over a forged one. */
  #reassert(runId: string): void {
    const record = this.#records.get(runId);
    if (record) this.#put(record);
  }

  #put(record: OwnedRecord): void {
    this.#records.set(record.info.runId, record);
    this.#send({ op: 'put', record }, this.redis.multi().hset(this.keys.runs, record.info.runId, JSON.stringify(record)));
  }

  #onMessage(message: RunMessage): void {
    switch (message.op) {
      case 'put': {
        const record = parseRunRecord(message.record);
        if (!record) return;
        const runId = record.info.runId;
        // Our own run's record is the one we keep (our own put set it already): one naming
        // another owner would stop us taking answers to its approvals (and have it swept as a
        // dead owner's), so we say ours again. One naming us for a run we do not run is a lie.
        if (this.#own.has(runId)) return void (record.owner !== this.instanceId && this.#reassert(runId));
        if (record.owner !== this.instanceId) this.#records.set(runId, record);
        return;
      }
      case 'forget':
        if (this.#own.has(message.runId)) return this.#reassert(message.runId); // we forget our own runs ourselves
        this.#records.delete(message.runId);
        return;
      case 'cancel':
        for (const owner of this.#owners) owner.cancel(message.runId);
        return;
      case 'answer': {
        // The owner checks the approval (and its task) again: only a waiting one is answered.
        const decision = storedDecision(message.decision);
        if (typeof message.approvalId !== 'string' || !decision) return;
        if (message.claim === true && typeof message.requestId === 'string') return this.#applyClaimed(message, message.requestId, decision);
        // An answer without a claim (from an instance of an older version): applied as it comes.
        let ok = false;
        for (const owner of this.#owners) ok = owner.answer(message.runId, message.approvalId, decision, message.taskId) || ok;
        // The owner gives its verdict (an answer that came second finds nothing waiting: false).
        if (typeof message.requestId === 'string' && (ok || this.#records.get(message.runId)?.owner === this.instanceId)) {
          this.#send({ op: 'answered', requestId: message.requestId, ok });
        }
        return;
      }
      case 'answered':
        if (typeof message.requestId === 'string') this.#verdicts.get(message.requestId)?.(message.ok === true);
        return;
    }
  }

  /**
   * The owner of the run claims the answer before applying it: one its sender withdrew (it
   * waited too long for this instance) is never applied. The verdict is recorded and sent.
   */
  #applyClaimed(message: Extract<RunMessage, { op: 'answer' }>, requestId: string, decision: ApprovalDecision): void {
    if (this.#records.get(message.runId)?.owner !== this.instanceId) return;
    claimAnswer(this.redis, this.keys, requestId)
      .then((claimed) => {
        if (!claimed) return; // withdrawn: its sender was told it is not applied
        let ok = false;
        for (const owner of this.#owners) ok = owner.answer(message.runId, message.approvalId, decision, message.taskId) || ok;
        const verdict: RunMessage = { op: 'answered', requestId, ok };
        return settleAnswer(this.redis, this.keys, requestId, ok, JSON.stringify(verdict));
      })
      .catch(() => undefined); // Redis is away: the sender's wait ends it
  }

  #send(message: RunMessage, write = this.redis.multi()): void {
    // Fire and forget, like the registry's own bookkeeping: a lost update only makes another
    // engine's copy stale, and a dead Redis is reported by the reads and writes of runs.
    write.publish(this.keys.runsChannel, JSON.stringify(message)).exec().catch(() => undefined);
  }
}
