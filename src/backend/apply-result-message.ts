import { resultKey } from '../delegation/undelivered-results.js';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { DroppedNotes } from './dropped-notes.js';
import type { GoneChecks } from './gone-checks.js';
import type { WaitingMirror } from './waiting-mirror.js';
import type { ResultMessage } from './waiting-results-store.js';

/** What a results-channel message changes: an engine's mirror of results and notes, and the name of its own messages. */
export interface ResultsState {
  readonly mirror: WaitingMirror;
  /** Reads a conversation's note back from Redis itself (`DroppedNotes.refresh`). */
  readonly notes: DroppedNotes;
  readonly origin: string;
  /** The conversation's result `key` as Redis holds it now (`readWaitingResultAt`), or undefined when it holds none. */
  readonly stored: (sessionId: string, key: string) => Promise<TaskInfo | undefined>;
  /** What Redis says of the conversation's result `key` now (`readResultFate`): waiting, gone (taken or dropped), neither, or failed. */
  readonly fate: (sessionId: string, key: string) => Promise<TaskInfo | 'gone' | 'failed' | undefined>;
  /** The results whose fate is being read (by conversation and key), so a flood of words on one costs one read in flight. */
  readonly checks: GoneChecks;
}

/**
 * Applies a change another mirror (or Redis's put script) announced on the results channel,
 * a message read by `readResultMessage`, so the mirror holds what Redis holds. Anyone with
 * access to the Redis can publish there, so a message only says where to look: what it
 * brings is read back from Redis, and what it takes away is checked there.
 *
 * - `put`: the result waits, as Redis holds it. A forged result taken from the message would
 *   reach a conversation's next prompt and grow the mirror past Redis's bound. Read after the
 *   message, a result taken or dropped meanwhile is not brought back: their messages, applied
 *   at once, marked it taken. One given back (`back`) is no longer taken, once Redis is read
 *   to hold it (a forged put-back would have un-taken a result someone took, so its
 *   launching engine's own late put of it was delivered again), unless this engine took it
 *   (`WaitingMirror.untake`: its own put-back was made here at once, and its message, read
 *   after the next prompt took the result again, would undo that take). One whose take or
 *   drop is still being checked is checked afresh (below), which decides;
 * - `dropped`, `taken`: the results are forgotten at once (so a late put's read-back does not
 *   bring them back), then Redis is asked what became of them, and only its word stands
 *   (unless a later message on one decides: its own check does): one still held is brought
 *   back (a forged message would have every engine forget a result waiting there until
 *   restart); one Redis records taken or dropped (`RedisKeys.resultsGone`) stays forgotten;
 *   one it knows nothing of (not put yet) is forgotten no longer, so its put, when it comes,
 *   is delivered (a forged message would have had every engine ignore it). A drop of one
 *   delivered as Redis dropped it changes no result. This mirror's own takes were made here.
 *   One naming a result under another conversation than the copy knows it under changes
 *   nothing (`WaitingMirror.forget`): its check, read there, would answer for the wrong one;
 * - every message but this mirror's own `noted`, `renoted` (made here at once): the
 *   conversation's note of dropped results is read back from Redis, never taken from the
 *   message, whose named tasks would reach a prompt uncut (a `noted` or `taken` only when a
 *   note is held: they only shrink one).
 *
 * Each read-back has one in flight per result or conversation (`GoneChecks`): a flood of
 * forged messages naming one is not a flood of reads.
 *
 * @internal
 */
export function applyResultMessage(state: ResultsState, message: ResultMessage): void {
  const { mirror, notes, origin } = state;
  if (message.op === 'put') {
    const { sessionId } = message.info;
    const key = resultKey(message.info);
    // Forgotten on a word still being checked (a check sent before this put may answer after
    // its read-back): a fresh check, sent after the put, decides instead.
    if (mirror.isChecking(key)) return forgetChecked(state, sessionId, key);
    void state.stored(sessionId, key).then((stored) => {
      if (!stored) return;
      // A word on it came meanwhile: its check, sent after this read, decides.
      if (message.back === true && !mirror.isChecking(key)) mirror.untake(key, sessionId);
      mirror.add(stored);
    });
    return;
  }
  if (message.op === 'dropped') {
    if (!mirror.wasTaken(message.key)) forgetChecked(state, message.sessionId, message.key);
    return notes.refresh(message.sessionId);
  }
  if (message.op === 'taken') {
    if (message.origin !== origin) for (const key of message.keys) forgetChecked(state, message.sessionId, key);
    // A take names its tasks out of a note a racing drop wrote: only a note held (or on its way) changes.
    if (notes.has(message.sessionId)) notes.refresh(message.sessionId);
    return;
  }
  // A note shown elsewhere only shrinks: one held (or on its way) is read back. One given back may be new.
  if (message.origin !== origin && (message.op === 'renoted' || notes.has(message.sessionId))) notes.refresh(message.sessionId);
}

/**
 * Forgets a result on another's word, then keeps it forgotten only if Redis says it is gone
 * (see above). Redis failing leaves it forgotten, as the word said.
 */
function forgetChecked(state: ResultsState, sessionId: string, key: string): void {
  state.mirror.forget(sessionId, key);
  readFate(state, sessionId, key);
}

/**
 * Asks Redis the fate of a result forgotten on a word, one read in flight per result: the
 * words that come while one is (a flood of forged `taken` naming it) cost one more read,
 * sent once it answers, whose answer decides (`GoneChecks`): the read in flight may have been
 * answered before the change a later word announces.
 */
function readFate(state: ResultsState, sessionId: string, key: string): void {
  const id = `${sessionId}\n${key}`;
  const word = state.mirror.wordOn(sessionId, key);
  if (word === undefined || state.checks.start([id]).length === 0) return;
  void state.fate(sessionId, key).catch(() => 'failed' as const).then((fate) => {
    if (state.checks.done([id]).length > 0) return readFate(state, sessionId, key);
    if (!state.mirror.settle(sessionId, key, word) || fate === 'failed') return;
    // Recorded gone there: the copy now knows the result's conversation (a word naming another is forged).
    if (fate === 'gone') return state.mirror.markTaken(key, sessionId);
    state.mirror.untake(key, sessionId);
    if (fate) state.mirror.add(fate);
  });
}
