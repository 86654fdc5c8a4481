import type { Redis } from 'ioredis';
import type { ApprovalDecision } from '../permission/approval.js';
import type { RunOwner } from '../runs/shared-runs.js';
import { answerState, claimAnswer, settleAnswer } from './answer-claim.js';
import type { GoneChecks } from './gone-checks.js';
import type { RedisKeys } from './redis-keys.js';
import { parseRunRecord, type OwnedRecord } from './run-record.js';
import { storedDecision } from './stored-decision.js';

/**
 * What travels on the runs channel: a run's record, a run forgotten, a cancel, an answer to
 * an approval and the owner's verdict on it.
 *
 * @internal
 */
export type RunMessage =
  | { readonly op: 'put'; readonly record: OwnedRecord }
  | { readonly op: 'forget'; readonly runId: string }
  | { readonly op: 'cancel'; readonly runId: string }
  // `claim`: the answer waits in Redis (answer-claim.ts) and the owner claims it before applying it.
  | { readonly op: 'answer'; readonly runId: string; readonly approvalId: string; readonly taskId?: string | null; readonly decision: ApprovalDecision; readonly requestId?: string; readonly claim?: boolean }
  | { readonly op: 'answered'; readonly requestId: string; readonly ok: boolean };

/** What a runs-channel message changes: an engine's copy of the runs, the runs it serves, the answers it waits on. @internal */
export interface RunsChannelState {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly instanceId: string;
  readonly records: Map<string, OwnedRecord>;
  /** The runs this instance publishes: their records here are the truth, whatever the channel says. */
  readonly own: ReadonlySet<string>;
  readonly owners: ReadonlySet<RunOwner>;
  /** Answers sent to other instances, waiting for their owner's verdict. */
  readonly verdicts: ReadonlyMap<string, (ok: boolean) => void>;
  /** Publishes our record of our own run again, over a forged one. */
  reassert(runId: string): void;
  /** Another engine's record changed in `records` (set or deleted). */
  changed(runId: string): void;
  /** The runs whose records are being read back for a `forget`, so a flood of them costs one read each in flight. */
  readonly checks: GoneChecks;
}

/**
 * How long a run's cancel marker (`RedisKeys.runCancelled`) is kept: far beyond its
 * message's way to the owner.
 *
 * @internal
 */
export const CANCEL_MARK_MS = 10 * 60_000;

/**
 * Applies a message of the runs channel. Anyone with access to the Redis can publish there,
 * so none is believed on its word alone:
 *
 * - `put`, `forget`: our own runs' records stay ours (one naming another owner, or forgetting
 *   it, is answered by publishing ours again); a record of the wrong shape is skipped;
 *   another's run is forgotten only once Redis confirms its record is gone (`forget` takes it
 *   out of the runs hash before its message): a forged one would drop any run from every
 *   engine's copy (no `attach`, cancel or answer through it) until its next update;
 * - `cancel`: the run is cancelled only if Redis marks it (`RedisKeys.runCancelled`, written
 *   with a real cancel's message): a forged one would cancel any running run. Only the
 *   instance that runs it (publishes its record) reads the marker: the others cannot cancel it;
 * - `answer`: only one waiting in Redis, claimed there by the run's owner, is applied: one
 *   without a claim (an older version's, or anyone's) is not, and its sender's wait says so;
 *   applied as it came, a forged one could approve any call waiting for approval;
 * - `answered`: the verdict is the one Redis records (`settleAnswer` writes it before its
 *   message): a forged one could tell a sender its answer was refused while it still waits.
 *
 * @internal
 */
export function applyRunMessage(state: RunsChannelState, message: RunMessage): void {
  switch (message.op) {
    case 'put': {
      const record = parseRunRecord(message.record);
      if (!record) return;
      const runId = record.info.runId;
      // Our own run's record is the one we keep (our own put set it already): one naming
      // another owner would stop us taking answers to its approvals (and have it swept as a
      // dead owner's), so we say ours again. One naming us for a run we do not run is a lie.
      if (state.own.has(runId)) return void (record.owner !== state.instanceId && state.reassert(runId));
      if (record.owner !== state.instanceId) {
        state.records.set(runId, record);
        state.changed(runId);
      }
      return;
    }
    case 'forget':
      if (typeof message.runId !== 'string') return;
      if (state.own.has(message.runId)) return state.reassert(message.runId); // we forget our own runs ourselves
      forgetGone(state, message.runId);
      return;
    case 'cancel':
      // Only the instance running the run reads its marker: the others' registries could not cancel it.
      if (typeof message.runId === 'string' && state.owners.size > 0 && state.own.has(message.runId)) cancelMarked(state, message.runId);
      return;
    case 'answer': {
      // The owner checks the approval (and its task) again: only a waiting one is answered.
      const decision = storedDecision(message.decision);
      if (typeof message.approvalId !== 'string' || !decision) return;
      if (message.claim === true && typeof message.requestId === 'string') applyClaimed(state, message, message.requestId, decision);
      return;
    }
    case 'answered':
      if (typeof message.requestId === 'string' && state.verdicts.has(message.requestId)) verdictRead(state, message.requestId);
      return;
  }
}

/**
 * Forgets another engine's run once Redis confirms its record is gone from the runs hash (a
 * run being read already is read once more after, however many forgets name it meanwhile:
 * `GoneChecks`). A copy that changed meanwhile (a later put) is kept; Redis away, it is kept
 * too: a forget not confirmed is none.
 */
function forgetGone(state: RunsChannelState, runId: string): void {
  const seen = state.records.get(runId);
  if (!seen || state.checks.start([runId]).length === 0) return;
  state.redis
    .hexists(state.keys.runs, runId)
    .then((found) => {
      if (found === 0 && state.records.get(runId) === seen) {
        state.records.delete(runId);
        state.changed(runId);
      }
    })
    .catch(() => undefined)
    .finally(() => {
      if (state.checks.done([runId]).length > 0) forgetGone(state, runId);
    });
}

/** Cancels a run another engine cancelled, once Redis confirms it (its marker). */
function cancelMarked(state: RunsChannelState, runId: string): void {
  state.redis
    .exists(state.keys.runCancelled(runId))
    .then((marked) => {
      if (marked === 1) for (const owner of [...state.owners]) owner.cancel(runId);
    })
    .catch(() => undefined); // Redis is away: a cancel not confirmed is none
}

/**
 * The owner of the run claims the answer before applying it: one its sender withdrew (it
 * waited too long for this instance) is never applied. The verdict is recorded and sent.
 */
function applyClaimed(state: RunsChannelState, message: Extract<RunMessage, { op: 'answer' }>, requestId: string, decision: ApprovalDecision): void {
  const { redis, keys } = state;
  if (state.records.get(message.runId)?.owner !== state.instanceId) return;
  claimAnswer(redis, keys, requestId)
    .then((claimed) => {
      if (!claimed) return; // withdrawn: its sender was told it is not applied
      let ok = false;
      for (const owner of state.owners) ok = owner.answer(message.runId, message.approvalId, decision, message.taskId) || ok;
      const verdict: RunMessage = { op: 'answered', requestId, ok };
      return settleAnswer(redis, keys, requestId, ok, JSON.stringify(verdict));
    })
    .catch(() => undefined); // Redis is away: the sender's wait ends it
}

/** Settles an answer's wait with the verdict Redis records; not recorded yet, the wait goes on. */
function verdictRead(state: RunsChannelState, requestId: string): void {
  answerState(state.redis, state.keys, requestId)
    .then((found) => {
      if (found === 'taken' || found === 'refused') state.verdicts.get(requestId)?.(found === 'taken');
    })
    .catch(() => undefined); // the wait ends it
}
