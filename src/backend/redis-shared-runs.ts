import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ApprovalDecision } from '../permission/approval.js';
import { ofTask } from '../runs/pending-approvals.js';
import type { RunOwner, SharedRunRecord, SharedRuns } from '../runs/shared-runs.js';
import type { ChannelHub } from './channel-hub.js';
import { loadHash } from './load-hash.js';
import { storedDecision } from './stored-decision.js';
import type { RedisKeys } from './redis-keys.js';
import { parseRunRecord, type OwnedRecord } from './run-record.js';

type RunMessage =
  | { readonly op: 'put'; readonly record: OwnedRecord }
  | { readonly op: 'forget'; readonly runId: string }
  | { readonly op: 'cancel'; readonly runId: string }
  | { readonly op: 'answer'; readonly runId: string; readonly approvalId: string; readonly taskId?: string | null; readonly decision: ApprovalDecision; readonly requestId?: string }
  | { readonly op: 'answered'; readonly requestId: string; readonly ok: boolean };

/** How long an answer sent to another instance waits for its owner's verdict (an owner gone never gives one). */
const ANSWER_REPLY_MS = 5000;

/**
 * {@link SharedRuns} on Redis: each record is kept in a hash (read once when the backend
 * starts, so an engine started later knows the runs already there) and published on a
 * channel, from which every engine keeps its copy current. Cancels and answers are
 * published too; each engine hands them to the registries it serves, and only the one
 * that runs the run acts. An answer waits for that owner's verdict: of two engines
 * answering one approval at once, the owner's first-come check lets exactly one win, and
 * the other learns it lost. Each record names the instance (backend) that owns it, so a run
 * whose instance died can be found and ended (see `dead-owner-sweep.ts`).
 *
 * @internal
 */
export class RedisSharedRuns implements SharedRuns {
  readonly #records = new Map<string, OwnedRecord>();
  readonly #owners = new Set<RunOwner>();
  /** Answers sent to other instances, waiting for their owner's verdict. */
  readonly #verdicts = new Map<string, (ok: boolean) => void>();

  private constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** The instance publishing through this copy. */
    readonly instanceId: string,
  ) {}

  /** Loads the runs Redis knows (skipping records that are not records) and follows their changes. */
  static async create(redis: Redis, keys: RedisKeys, hub: ChannelHub, instanceId: string): Promise<{ runs: RedisSharedRuns; stop: () => void }> {
    const runs = new RedisSharedRuns(redis, keys, instanceId);
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
    this.#put({ ...record, owner: this.instanceId });
  }

  forget(runId: string): void {
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

  answer(runId: string, approvalId: string, decision: ApprovalDecision, taskId?: string | null): Promise<boolean> | false {
    if (!this.get(runId)?.pending.some((p) => p.approvalId === approvalId && ofTask(p, taskId))) return false;
    const requestId = randomUUID();
    return new Promise<boolean>((resolve) => {
      const settle = (ok: boolean): void => {
        if (!this.#verdicts.delete(requestId)) return;
        clearTimeout(timer);
        resolve(ok);
      };
      const timer = setTimeout(() => settle(false), ANSWER_REPLY_MS);
      timer.unref();
      this.#verdicts.set(requestId, settle);
      this.#send({ op: 'answer', runId, approvalId, decision, requestId, ...(taskId !== undefined ? { taskId } : {}) });
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

  #put(record: OwnedRecord): void {
    this.#records.set(record.info.runId, record);
    this.#send({ op: 'put', record }, this.redis.multi().hset(this.keys.runs, record.info.runId, JSON.stringify(record)));
  }

  #onMessage(message: RunMessage): void {
    switch (message.op) {
      case 'put': {
        const record = parseRunRecord(message.record);
        if (record) this.#records.set(record.info.runId, record);
        return;
      }
      case 'forget':
        this.#records.delete(message.runId);
        return;
      case 'cancel':
        for (const owner of this.#owners) owner.cancel(message.runId);
        return;
      case 'answer': {
        // The owner checks the approval (and its task) again: only a waiting one is answered.
        const decision = storedDecision(message.decision);
        if (typeof message.approvalId !== 'string' || !decision) return;
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

  #send(message: RunMessage, write = this.redis.multi()): void {
    // Fire and forget, like the registry's own bookkeeping: a lost update only makes another
    // engine's copy stale, and a dead Redis is reported by the reads and writes of runs.
    write.publish(this.keys.runsChannel, JSON.stringify(message)).exec().catch(() => undefined);
  }
}
