/**
 * The approvals a child on a worker asks its launcher (on the job's approvals channel): each
 * asked through the engine's wiring and answered on the worker's reply channel.
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
import type { ApprovalReply } from './task-job.js';

const NOBODY: ApprovalDecision = { decision: 'reject', comment: 'no approval handler is configured (fail-closed)' };

/**
 * The most approvals one job may have waiting at once. A run asks about one call at a time
 * (its tool calls run one after another), so a job's child asks one, and the children it
 * delegates in-process on its worker one each: a multitask runs 5 at once by default, 25 two
 * levels down. 64 leaves room for larger pools; past it, what asks is more likely a flood
 * (anyone with access to the Redis can publish on the channel, and each waiting approval is
 * in the run's record every engine is sent at each change), and is refused.
 */
export const MAX_WAITING_ASKS = 64;

/**
 * The handler of a child's approvals channel: each question asked once (a replay of one still
 * asked is ignored), withdrawn when the worker withdraws it or `withdraw` aborts (the launcher
 * stopped following the child), answered fail-closed when asking fails. An ask of a shape or
 * size no worker sends, or past {@link MAX_WAITING_ASKS}, is refused (the call it names is
 * rejected) with a process warning naming the task (at most one a minute, the rest counted).
 *
 * @internal
 */
export function answerAsks(parts: BackendParts, wiring: LauncherWiring, child: ChildRun, withdraw: AbortSignal): (text: string) => void {
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
    if (asked.size >= MAX_WAITING_ASKS) {
      return refuse(message.id, message.replyTo, `task ${child.taskId} already has ${MAX_WAITING_ASKS} approvals waiting, the most a job may have at once`, text);
    }
    const mine = new AbortController();
    if (withdraw.aborted) mine.abort();
    else asked.set(message.id, mine);
    const approve = wiring.approve;
    Promise.resolve()
      // Whoever can publish here may name any run: the job's own tree is the only one it may ask in.
      .then(() => (approve ? approve({ ...message.request, rootRunId: child.parent.rootRunId }, { signal: mine.signal }) : NOBODY))
      .catch((e: unknown): ApprovalDecision => ({ decision: 'reject', comment: `the approval failed: ${errorMessage(e)} (fail-closed)` }))
      .then((decision) => {
        if (asked.get(message.id) === mine) asked.delete(message.id);
        return reply(message.id, message.replyTo, decision);
      })
      .catch(() => undefined); // the worker fails closed when no answer comes
  };
}
