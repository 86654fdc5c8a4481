/**
 * An answer sent to an approval of a run whose owner dies before it claims the answer: once
 * the run is reaped (its owner's heartbeat lapsed, the run marked failed), the answer is
 * withdrawn and settles as "not pending" at once (HTTP 404), not after the whole wait as
 * "withdrawn, send it again" (a 504 whose retry could only find nothing pending). The owner
 * is a process of its own, stopped then killed; the answer's wait is far longer than the test.
 */
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { answerState } from '../../src/backend/answer-claim.js';
import { steps } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';
import { PROCESS_TEST_TIMEOUT_MS, engineProcess } from './worker-processes.js';

/** How soon a dead owner's heartbeat lapses. */
const STALL_MS = 1000;

describe.skipIf(!HAS_REDIS)('an answer to a run whose owner dies before claiming it', () => {
  const scale = useScaleKits();
  let owner: ChildProcess | undefined;
  afterEach(() => {
    owner?.kill('SIGKILL');
    owner = undefined;
  });

  it('settles as not pending once the run is reaped, the answer taken back, long before its wait ends', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const k = await scale.kit(STALL_MS);
    k.fixture.route({ main: steps({ toolCalls: [{ name: 'bash', arguments: { command: 'echo approved-run' } }] }, { text: 'done' }) });
    const backend = await k.backend({ answerWaitMs: 10 * PROCESS_TEST_TIMEOUT_MS });
    const other = await k.engine({}, [], backend);
    const started = await engineProcess(k, scale.redis, { model: 'proc-model', stallMs: STALL_MS, prompt: 'go' });
    owner = started.child;
    const { runId } = started;
    await waitFor(() => other.runs.pendingApprovals(runId).length === 1);
    const { approvalId } = other.runs.pendingApprovals(runId)[0]!;

    owner.kill('SIGSTOP'); // it cannot claim the answer
    const requests: string[] = [];
    const { hub, keys, redis } = backend.parts;
    const stop = await hub.listen(keys.runsChannel, (text) => {
      const message = JSON.parse(text) as { op: string; requestId?: string };
      if (message.op === 'answer' && message.requestId !== undefined) requests.push(message.requestId);
    });
    const answer = Promise.resolve(other.runs.answer(runId, approvalId, { decision: 'approve' }));
    await waitFor(() => requests.length === 1);
    stop();
    owner.kill('SIGKILL');
    expect(await answer).toBe(false);
    expect(other.runs.get(runId)?.state).toBe('failed'); // reaped
    expect(await answerState(redis, keys, requests[0]!)).toBe('gone'); // taken back (a pending one would be applied by a claimer)
  });
});
