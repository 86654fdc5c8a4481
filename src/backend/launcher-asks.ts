/**
 * The approvals a child on a worker asks its launcher (on the job's approvals channel): each
 * asked through the engine's wiring and answered on the worker's reply channel.
 *
 * Anyone with access to the Redis can publish on the channel: an ask is held to its job's
 * run (filed under the run that delegated the job, whatever run it names), to the run's room
 * ({@link MAX_WAITING_ASKS} waiting, all its jobs together) and to the job's tasks (the job's
 * own, or one it delegated on its worker: never another task this engine knows of; one
 * naming no task is filed under the job's, never as the main agent's own call).
 *
 * @module
 */
import type { ChildRun } from '../delegation/run-child.js';
import type { LauncherWiring } from '../engine/harness-backend.js';
import { errorMessage } from '../errors/error-message.js';
import type { ApprovalDecision } from '../permission/approval.js';
import type { BackendParts } from './backend-parts.js';
import { BadMessageWarnings } from './channel-warnings.js';
import { readAsk } from './relayed-ask.js';
import { MAX_WAITING_ASKS, type RunAskRoom } from './run-ask-room.js';
import type { ApprovalReply } from './task-job.js';

const NOBODY: ApprovalDecision = { decision: 'reject', comment: 'no approval handler is configured (fail-closed)' };

export { MAX_WAITING_ASKS } from './run-ask-room.js';

/**
 * The handler of a child's approvals channel: each question asked once (a replay of one still
 * asked is ignored), withdrawn when the worker withdraws it or `withdraw` aborts (the launcher
 * stopped following the child), answered fail-closed when asking fails. An ask of a shape or
 * size no worker sends, naming a task the job does not run, or past {@link MAX_WAITING_ASKS}
 * waiting in the run (`room`, the launcher's), is refused (the call it names is rejected)
 * with a process warning naming the task (at most one a minute, the rest counted).
 *
 * @internal
 */
export function answerAsks(parts: BackendParts, wiring: LauncherWiring, child: ChildRun, room: RunAskRoom, withdraw: AbortSignal): (text: string) => void {
  const asked = new Map<string, AbortController>();
  const bad = new BadMessageWarnings(`the approvals channel of task ${child.taskId}`, 'The call it asked about was refused (fail-closed)');
  // One listener for them all (one per ask was a listener leak warning past ten): the
  // launcher stopped following the child, so nothing it asked waits any more, and the
  // warnings say what they counted and leave no timer.
  const stop = (): void => {
    for (const question of asked.values()) question.abort();
    bad.close();
  };
  if (withdraw.aborted) stop();
  else withdraw.addEventListener('abort', stop, { once: true });
  const reply = (id: string, replyTo: string, decision: ApprovalDecision): Promise<unknown> => {
    const message: ApprovalReply = { id, decision };
    return parts.redis.publish(parts.keys.answers(replyTo), JSON.stringify(message));
  };
  const refuse = (id: string, replyTo: string, problem: string, text: string): void => {
    bad.report(problem, text);
    reply(id, replyTo, { decision: 'reject', comment: `the approval request was refused: ${problem} (fail-closed)` }).catch(() => undefined);
  };
  return (text: string): void => {
    const read = readAsk(text);
    if (!read) return; // nothing a worker publishes, nobody to answer
    if (read.kind === 'withdraw') return asked.get(read.id)?.abort();
    // A replay of a question still asked (anyone can publish here) would be refused as a
    // duplicate, and that refusal sent back as the answer to the real one.
    if (asked.has(read.id)) return;
    if (read.kind === 'refuse') return refuse(read.id, read.replyTo, read.problem, text);
    const message = read.ask;
    // Every run on a worker is a task's: one naming none would be filed as the main agent's own call.
    const taskId = message.request.taskId ?? child.taskId;
    const other = otherTask(child, taskId);
    if (other) return refuse(message.id, message.replyTo, other, text);
    const run = child.parent.rootRunId;
    if (!room.take(run)) {
      return refuse(message.id, message.replyTo, `run ${run} already has ${MAX_WAITING_ASKS} approvals waiting from its tasks, the most a run may have at once`, text);
    }
    const mine = new AbortController();
    if (withdraw.aborted) mine.abort();
    else asked.set(message.id, mine);
    const approve = wiring.approve;
    Promise.resolve()
      // Whoever can publish here may name any run: the job's own tree is the only one it may ask in.
      .then(() => (approve ? approve({ ...message.request, taskId, rootRunId: run }, { signal: mine.signal }) : NOBODY))
      .catch((e: unknown): ApprovalDecision => ({ decision: 'reject', comment: `the approval failed: ${errorMessage(e)} (fail-closed)` }))
      .then((decision) => {
        if (asked.get(message.id) === mine) asked.delete(message.id);
        room.release(run);
        return reply(message.id, message.replyTo, decision);
      })
      .catch(() => undefined); // the worker fails closed when no answer comes
  };
}

/**
 * Why an ask on `child`'s channel may not name `taskId`, or undefined when it may: the job's
 * own task, or one its child delegated in-process on its worker (known only to the worker's
 * tracker). A task this engine knows of (through its tracker: its own tasks and every
 * engine's) that is not the job's runs elsewhere: an ask naming it would be filed under it.
 */
function otherTask(child: ChildRun, taskId: string): string | undefined {
  if (taskId === child.taskId || child.tracker.get(taskId) === undefined) return undefined;
  return `it names task ${taskId}, not task ${child.taskId} (whose channel it came on) nor a task delegated under it`;
}
