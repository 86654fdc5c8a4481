import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalHandler } from '../permission/approval.js';
import type { BackendParts } from './backend-parts.js';
import { argsBytes, MAX_ASK_ARGS_BYTES } from './relayed-ask.js';
import type { ApprovalAsk, ApprovalReply } from './task-job.js';
import { storedDecision } from './stored-decision.js';
import { storedObject } from './stored-object.js';

/** A job a worker runs now, as its approvals need it. */
export interface ActiveJob {
  readonly logId: string;
  readonly taskId: string;
  readonly rootRunId: string;
}

const nobody = (why: string): ApprovalDecision => ({ decision: 'reject', comment: `${why} (fail-closed)` });

/**
 * A worker's approval handler: the request goes to the launcher of a job of the same tree
 * (the engine that owns the run at its top answers it, through its handler or its runs),
 * and the answer comes back on the worker's own channel. With nobody listening (the engine
 * is gone), the call cancelled, or its arguments past `MAX_ASK_ARGS_BYTES`, the call is rejected.
 */
export function workerApprovals(parts: BackendParts, workerId: string, jobs: () => Iterable<ActiveJob>): { approve: ApprovalHandler; onReply: (text: string) => void } {
  const waiting = new Map<string, (decision: ApprovalDecision) => void>();
  const approve: ApprovalHandler = (request, { signal }) => {
    const all = [...jobs()].filter((j) => j.rootRunId === request.rootRunId);
    // The job of the asking task itself, else any of its tree (a grandchild run in-process here).
    const job = all.find((j) => j.taskId === request.taskId) ?? all[0];
    if (!job) return nobody('no engine is known to own this run');
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
        parts.redis.publish(parts.keys.approvals(job.logId), JSON.stringify(withdraw)).catch(() => undefined);
      };
      waiting.set(id, done);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      // An engine that dies while a human thinks: nobody listens any more, the call fails closed.
      listening = setInterval(() => {
        parts.redis
          .pubsub('NUMSUB', parts.keys.approvals(job.logId))
          .then((reply) => Number((reply as [string, number])[1]) === 0 && done(nobody('the engine that owns the run is gone')))
          .catch(() => undefined);
      }, parts.stallMs);
      const ask: ApprovalAsk = { kind: 'ask', id, replyTo: workerId, request };
      parts.redis
        .publish(parts.keys.approvals(job.logId), JSON.stringify(ask))
        .then((listeners) => {
          if (listeners === 0) done(nobody('no engine is listening for this task (its parent is gone)'));
        })
        .catch(() => done(nobody('Redis failed while asking for approval')));
    });
  };
  const onReply = (text: string): void => {
    const reply = storedObject(text) as Partial<ApprovalReply> | undefined;
    // Published by anyone with access to the Redis: only a readable decision reaches the call.
    const decision = storedDecision(reply?.decision);
    if (typeof reply?.id === 'string' && decision) waiting.get(reply.id)?.(decision);
  };
  return { approve, onReply };
}
