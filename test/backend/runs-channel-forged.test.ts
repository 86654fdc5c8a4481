/**
 * Messages on the runs channel (`<prefix>:runs-events`) that anyone with access to the Redis
 * can publish, and that were applied as they came:
 *
 * - an `answer` without a claim (what older versions sent) was applied by the run's owner: a
 *   forged one could approve (or reject) any call waiting for approval. Now only an answer
 *   waiting in Redis, claimed there, is applied;
 * - a `cancel` cancelled the run: now its owner cancels only a run Redis marks cancelled
 *   (`<prefix>:run-cancelled:<run>`, written with a real cancel's message);
 * - an `answered` told an answer's sender the owner's verdict: a forged one said "refused"
 *   of an answer still waiting to be claimed (and later applied). Now the verdict is the one
 *   Redis records.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisSharedRuns } from '../../src/backend/redis-shared-runs.js';
import { AnswerNotAppliedError } from '../../src/runs/answer-not-applied-error.js';
import { AbortError } from '../../src/errors/abort-error.js';
import { steps } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';

const STALL_MS = 60_000;

describe.skipIf(!HAS_REDIS)('forged messages on the runs channel', () => {
  const scale = useScaleKits();

  /** A run on one engine waiting for approval of a bash call, seen from a second engine, and someone publishing on the channel. */
  async function waitingRun() {
    const k = await scale.kit(STALL_MS);
    k.fixture.route({ main: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo approved-run' } }] }, { text: 'done' }) });
    const ownerBackend = await k.backend();
    const owner = await k.engine({}, [], ownerBackend);
    const other = await k.engine();
    const run = owner.start('go');
    await waitFor(() => other.runs.pendingApprovals(run.runId).length === 1);
    const { approvalId } = other.runs.pendingApprovals(run.runId)[0]!;
    const attacker = new Redis(scale.redis.url);
    const publish = async (message: object): Promise<void> => {
      await attacker.publish(ownerBackend.parts.keys.runsChannel, JSON.stringify(message));
      await caughtUp(ownerBackend);
      await caughtUp(ownerBackend);
    };
    const ranBash = (): boolean => k.fixture.requestsOf('main').some((r) => r.body.messages!.some((m) => m.role === 'tool' && String(m.content).includes('approved-run')));
    return { k, owner, other, run, approvalId, publish, ranBash, close: () => attacker.disconnect() };
  }

  it('an answer without a claim, or with a claim Redis never offered, is not applied', async () => {
    const { owner, other, run, approvalId, publish, ranBash, close } = await waitingRun();
    try {
      const { runId } = run;
      const reject = { decision: 'reject', comment: 'forged' };
      await publish({ op: 'answer', runId, approvalId, decision: reject });
      await publish({ op: 'answer', runId, approvalId, decision: reject, requestId: 'forged-request' });
      await publish({ op: 'answer', runId, approvalId, decision: reject, requestId: 'forged-claim', claim: true });
      expect(owner.runs.pendingApprovals(runId)).toHaveLength(1);
      // A real answer through the other engine is still applied.
      expect(await other.runs.answer(runId, approvalId, { decision: 'approve' })).toBe(true);
      expect(await run.result).toMatchObject({ abnormal: false, text: 'done' });
      expect(ranBash()).toBe(true);
    } finally {
      close();
    }
  });

  it('a cancel Redis does not mark is not served; a real one from another engine is', async () => {
    const { owner, other, run, approvalId, publish, close } = await waitingRun();
    try {
      await publish({ op: 'cancel', runId: run.runId });
      expect(owner.runs.get(run.runId)?.state).toBe('running');
      expect(owner.runs.pendingApprovals(run.runId)).toEqual([expect.objectContaining({ approvalId })]);
      expect(other.runs.cancel(run.runId)).toBe(true);
      await expect(run.result).rejects.toSatisfy((e: unknown) => AbortError.isInstance(e));
    } finally {
      close();
    }
  });

  it("a verdict Redis does not record does not settle an answer's wait", async () => {
    const k = await scale.kit(STALL_MS);
    const [a, b] = [await k.backend(), await k.backend()];
    const { keys } = a.parts;
    // An owner that publishes its run and then hears nothing: it never claims an answer.
    const ghost = await RedisSharedRuns.create(a.parts.redis, keys, a.parts.hub, 'ghost');
    const sender = await RedisSharedRuns.create(b.parts.redis, keys, b.parts.hub, 'sender', 1_000);
    const attacker = new Redis(scale.redis.url);
    const listener = new Redis(scale.redis.url);
    try {
      ghost.runs.publish({
        info: { runId: 'run_g', sessionId: 'ses_g', agentName: 'main', state: 'running', startedAt: Date.now() },
        pending: [{ approvalId: 'appr_g', callId: 'call_g', toolName: 'bash', agentName: 'main' }],
      });
      await waitFor(() => sender.runs.get('run_g') !== undefined);
      ghost.stop();
      // Whoever can publish can also listen: the answer's request id is in its message.
      const requestIds: string[] = [];
      await listener.subscribe(keys.runsChannel);
      listener.on('message', (_channel: string, text: string) => {
        const message = JSON.parse(text) as { op: string; requestId?: string };
        if (message.op === 'answer' && message.requestId) requestIds.push(message.requestId);
      });
      const answered = Promise.resolve(sender.runs.answer('run_g', 'appr_g', { decision: 'approve' }));
      await waitFor(() => requestIds.length === 1);
      await attacker.publish(keys.runsChannel, JSON.stringify({ op: 'answered', requestId: requestIds[0], ok: false }));
      // Nobody claimed it: withdrawn when the wait ends, never "refused".
      await expect(answered).rejects.toSatisfy((e: unknown) => AnswerNotAppliedError.isInstance(e) && e.outcome === 'withdrawn');
    } finally {
      attacker.disconnect();
      listener.disconnect();
      sender.stop();
    }
  });
});
