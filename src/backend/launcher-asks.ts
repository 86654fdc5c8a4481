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
import { isPlainObject, storedObject } from './stored-object.js';
import type { ApprovalAsk, ApprovalReply } from './task-job.js';

const NOBODY: ApprovalDecision = { decision: 'reject', comment: 'no approval handler is configured (fail-closed)' };

/**
 * The handler of a child's approvals channel: each question asked once (a replay of one still
 * asked is ignored), withdrawn when the worker withdraws it or `withdraw` aborts (the launcher
 * stopped following the child), answered fail-closed when asking fails.
 *
 * @internal
 */
export function answerAsks(parts: BackendParts, wiring: LauncherWiring, child: ChildRun, withdraw: AbortSignal): (text: string) => void {
  const asked = new Map<string, AbortController>();
  return (text: string): void => {
    const message = approvalAsk(text);
    if (!message) return; // not what a worker publishes: nobody is asked
    if (message.kind === 'withdraw') return asked.get(message.id)?.abort();
    // A replay of a question still asked (anyone can publish here) would be refused as a
    // duplicate, and that refusal sent back as the answer to the real one.
    if (asked.has(message.id)) return;
    const mine = new AbortController();
    asked.set(message.id, mine);
    withdraw.addEventListener('abort', () => mine.abort(), { once: true, signal: mine.signal });
    const approve = wiring.approve;
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
