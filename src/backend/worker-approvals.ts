import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalHandler } from '../permission/approval.js';
import type { BackendParts } from './backend-parts.js';
import { argsBytes, MAX_ASK_ARGS_BYTES } from './relayed-ask.js';
import type { ApprovalAsk, ApprovalReply } from './task-job.js';
import { storedDecision } from './stored-decision.js';
import { storedObject } from './stored-object.js';

const nobody = (why: string): ApprovalDecision => ({ decision: 'reject', comment: `${why} (fail-closed)` });

/** A worker's approvals: a handler per job, the one for calls of no job, and where the answers come in. */
export interface WorkerApprovals {
  /**
   * The handler of one job's run and of every run it delegates in-process here: each question
   * goes to the launcher of that job (`logId`), whose engine owns the tree, and nowhere else.
   */
  readonly approveFor: (logId: string) => ApprovalHandler;
  /** The tree's own: a run under no job of this worker has no engine to ask, so it is rejected. */
  readonly unbound: ApprovalHandler;
  /** Reads an answer published on the worker's own channel. */
  readonly onReply: (text: string) => void;
}

/**
 * A worker's approval handlers: a request goes to the launcher of the job whose subtree asks
 * (the engine that owns the run at its top answers it, through its handler or its runs), and
 * the answer comes back on the worker's own channel. The job is known by the handler, bound to
 * it when the worker builds the job's child (`AgentSpec.approve`, inherited by its children):
 * never guessed from the request, which would send a grandchild's question to a sibling job
 * whose end withdraws it. With nobody listening (the engine is gone), the call cancelled, or
 * its arguments past `MAX_ASK_ARGS_BYTES`, the call is rejected.
 */
export function workerApprovals(parts: BackendParts, workerId: string): WorkerApprovals {
  const waiting = new Map<string, (decision: ApprovalDecision) => void>();
  const approveFor = (logId: string): ApprovalHandler => (request, { signal }) => {
    const channel = parts.keys.approvals(logId);
    // The launcher refuses larger ones (as forged, with a warning): said here, in the model's words.
    const bytes = argsBytes(request.args);
    if (bytes > MAX_ASK_ARGS_BYTES) {
      return nobody(`its arguments are ${bytes} bytes as JSON, more than the ${MAX_ASK_ARGS_BYTES} a call on a worker may ask approval for: make it in smaller parts (a large file in several writes)`);
    }
    const id = randomUUID();
    return new Promise<ApprovalDecision>((resolve) => {
      let listening: NodeJS.Timeout | undefined;
      const done = (decision: ApprovalDecision): void => {
        if (!waiting.delete(id)) return;
        clearInterval(listening);
        signal.removeEventListener('abort', onAbort);
        resolve(decision);
      };
      const onAbort = (): void => {
        done(nobody('the approval was withdrawn: the call was cancelled'));
        const withdraw: ApprovalAsk = { kind: 'withdraw', id };
        parts.redis.publish(channel, JSON.stringify(withdraw)).catch(() => undefined);
      };
      waiting.set(id, done);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      // An engine that dies while a human thinks: nobody listens any more, the call fails closed.
      listening = setInterval(() => {
        parts.redis
          .pubsub('NUMSUB', channel)
          .then((reply) => Number((reply as [string, number])[1]) === 0 && done(nobody('the engine that owns the run is gone')))
          .catch(() => undefined);
      }, parts.stallMs);
      const ask: ApprovalAsk = { kind: 'ask', id, replyTo: workerId, request };
      parts.redis
        .publish(channel, JSON.stringify(ask))
        .then((listeners) => {
          if (listeners === 0) done(nobody('no engine is listening for this task (its parent is gone)'));
        })
        .catch(() => done(nobody('Redis failed while asking for approval')));
    });
  };
  // Every run a worker makes is a job's or under one: this answers only what escaped that binding.
  const unbound: ApprovalHandler = () => nobody('the call runs on a worker under none of its tasks, so no engine can be asked');
  const onReply = (text: string): void => {
    const reply = storedObject(text) as Partial<ApprovalReply> | undefined;
    // Published by anyone with access to the Redis: only a readable decision reaches the call.
    const decision = storedDecision(reply?.decision);
    if (typeof reply?.id === 'string' && decision) waiting.get(reply.id)?.(decision);
  };
  return { approveFor, unbound, onReply };
}
