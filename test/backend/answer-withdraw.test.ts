/**
 * An answer sent to an approval of a run another instance owns, while that instance is
 * stopped (issue 28 review, item 3). It used to wait 5 s and be reported as not taken, while
 * the owner, once running again, still applied it: the report was false. Now the answer is
 * withdrawn atomically when the wait ends (the owner must claim it before applying it), the
 * caller is told so (`AnswerNotAppliedError`, HTTP 504 saying it was withdrawn), and the
 * owner never applies it. The owner is a process of its own, stopped with SIGSTOP; nothing
 * here measures time.
 */
import { createServer } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { map } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { claimAnswer } from '../../src/backend/answer-claim.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { AnswerNotAppliedError } from '../../src/runs/answer-not-applied-error.js';
import { steps } from '../support/delegation-script.js';
import { listen, postJson } from '../http/http-kit.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, useScaleKits, waitFor } from './scale-kit.js';
import { PROCESS_TEST_TIMEOUT_MS, engineProcess } from './worker-processes.js';

/** Long enough that the stopped owner is never taken for dead: nothing here waits for a heartbeat to lapse. */
const LIVE_STALL_MS = 30_000;

describe.skipIf(!HAS_REDIS)('an approval answer to a stopped owner', () => {
  const scale = useScaleKits();
  let owner: ChildProcess | undefined;
  afterEach(() => {
    owner?.kill('SIGCONT');
    owner?.kill('SIGKILL');
    owner = undefined;
  });

  /**
   * An owner process whose run waits for approval of a bash call, and another engine that
   * sees the approval and waits 300 ms for the owner to claim an answer (the default is 5 s).
   */
  async function ownerAwaitingApproval() {
    const k = await scale.kit(LIVE_STALL_MS);
    k.fixture.route({ main: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo approved-run' } }] }, { text: 'done' }) });
    const other = await k.engine({}, [], await k.backend({ answerWaitMs: 300 }));
    const started = await engineProcess(k, scale.redis, { model: 'proc-model', stallMs: LIVE_STALL_MS, prompt: 'go' });
    owner = started.child;
    const { runId } = started;
    await waitFor(() => other.runs.pendingApprovals(runId).length === 1);
    const { approvalId } = other.runs.pendingApprovals(runId)[0]!;
    return { k, other, runId, approvalId, ownerProcess: started.child };
  }

  it('is withdrawn when the wait ends, said so (also over HTTP), and never applied once the owner runs again', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const { k, other, runId, approvalId, ownerProcess } = await ownerAwaitingApproval();
    const events = eventsOf(other.runs.attach(runId).pipe(map(({ event }) => event)));

    ownerProcess.kill('SIGSTOP');
    const first = Promise.resolve(other.runs.answer(runId, approvalId, { decision: 'reject', comment: 'first, withdrawn' }));
    await expect(first).rejects.toSatisfy((e: unknown) => AnswerNotAppliedError.isInstance(e) && e.outcome === 'withdrawn');
    // Over HTTP, the same: a 504 whose message says the answer was withdrawn.
    const server = createServer(runsHandler(other));
    try {
      const url = await listen(server);
      const answered = await postJson(`${url}/runs/${runId}/approvals/${approvalId}`, { decision: 'reject', comment: 'over http, withdrawn' });
      expect(answered.status).toBe(504);
      expect((answered.body as { error: string }).error).toMatch(/was withdrawn: .* will never be applied/);
    } finally {
      server.closeAllConnections();
      server.close();
    }

    // The owner runs again and reads both answers first (pub/sub keeps their order), then this one.
    ownerProcess.kill('SIGCONT');
    expect(await other.runs.answer(runId, approvalId, { decision: 'approve', comment: 'second' })).toBe(true);
    const decided = (await events).filter((e) => e.type === 'HITLDecided');
    expect(decided).toEqual([expect.objectContaining({ approvalId, decision: 'approve', comment: 'second' })]);
    expect(k.fixture.requestsOf('main').at(-1)!.body.messages!.some((m) => String(m.content).includes('approved-run'))).toBe(true);
  });

  it('claimed and never confirmed (its claimer stopped while applying it), is said to be unconfirmed, not withdrawn', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const { k, other, runId, approvalId, ownerProcess } = await ownerAwaitingApproval();
    // An owner that claims each answer and stops before applying it: the claim's compare-and-set, then nothing.
    const { redis, hub, keys } = (await k.backend()).parts;
    const claims: Promise<boolean>[] = [];
    const stop = await hub.listen(keys.runsChannel, (text) => {
      const message = JSON.parse(text) as { op: string; claim?: boolean; requestId?: string };
      if (message.op === 'answer' && message.claim && claims.length === 0) claims.push(claimAnswer(redis, keys, message.requestId!));
    });
    ownerProcess.kill('SIGSTOP'); // the real owner cannot claim it first
    const answer = Promise.resolve(other.runs.answer(runId, approvalId, { decision: 'reject', comment: 'claimed elsewhere' }));
    await expect(answer).rejects.toSatisfy((e: unknown) => AnswerNotAppliedError.isInstance(e) && e.outcome === 'unconfirmed' && /did not say .* whether it applied it/.test(e.message));
    expect(await Promise.all(claims)).toEqual([true]);
    stop();
    ownerProcess.kill('SIGCONT');
    // The real owner finds it claimed already: it does not apply it; the next answer decides.
    expect(await other.runs.answer(runId, approvalId, { decision: 'approve', comment: 'next' })).toBe(true);
  });
});
