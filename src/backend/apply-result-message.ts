import { resultKey } from '../delegation/undelivered-results.js';
import type { TaskInfo } from '../delegation/task-tracker.js';
import type { DroppedNotes } from './dropped-notes.js';
import type { WaitingMirror } from './waiting-mirror.js';
import type { ResultMessage } from './waiting-results-store.js';

/** What a results-channel message changes: an engine's mirror of results and notes, and the name of its own messages. */
export interface ResultsState {
  readonly mirror: WaitingMirror;
  readonly notes: DroppedNotes;
  readonly origin: string;
  /** The result as Redis holds it now (`readWaitingResult`), or undefined when it holds none. */
  readonly stored: (info: TaskInfo) => Promise<TaskInfo | undefined>;
}

/**
 * Applies a change another mirror (or Redis's put script) announced on the results channel,
 * a message read by `readResultMessage`, so the mirror holds what Redis holds:
 *
 * - `put`: the result waits (one given back, `back`, is no longer taken), as Redis holds it:
 *   the message only says where to look. Anyone with access to the Redis can publish, and
 *   a forged result taken from the message would reach a conversation's next prompt and
 *   grow the mirror past Redis's bound. Read after the message, a result taken or dropped
 *   meanwhile is not brought back: their messages, applied at once, marked it taken;
 * - `dropped`: Redis dropped it to keep its bound: gone, and counted in its conversation's
 *   note, unless it was delivered as Redis dropped it;
 * - `taken`: delivered by a prompt (this mirror's own take removed them already, and a
 *   put-back since must stay); a racing drop's note no longer names them;
 * - `noted`, `renoted`: a note shown, or given back, elsewhere (this mirror's own changes
 *   were made here at once).
 *
 * @internal
 */
export function applyResultMessage(state: ResultsState, message: ResultMessage): void {
  const { mirror, notes, origin } = state;
  if (message.op === 'put') {
    if (message.back === true) mirror.untake(resultKey(message.info));
    void state.stored(message.info).then((stored) => stored && mirror.add(stored));
    return;
  }
  if (message.op === 'dropped') {
    if (mirror.wasTaken(message.key)) return;
    mirror.remove(message.sessionId, message.key);
    mirror.markTaken(message.key); // this engine's own copy of it, put late, must not bring it back
    return notes.dropped(message.sessionId, message.taskId);
  }
  if (message.op === 'taken') {
    if (message.origin !== origin)
      for (const key of message.keys) {
        mirror.markTaken(key);
        mirror.remove(message.sessionId, key);
      }
    const taskIds = message.keys.map((key) => key.slice(0, key.lastIndexOf('\n')));
    return notes.unnote(message.sessionId, taskIds.length, taskIds, true);
  }
  if (message.origin === origin) return;
  if (message.op === 'noted') notes.unnote(message.sessionId, message.count, message.taskIds, false);
  else notes.renote(message.sessionId, message.count, message.taskIds);
}
