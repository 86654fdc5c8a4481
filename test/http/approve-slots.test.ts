import { describe, expect, it, vi } from 'vitest';
import { closedAfterEach } from '../support/closed-after-each.js';
import { turnOf } from '../support/delegation-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { answerOf, slowBody, type SlowBody } from '../support/slow-body.js';
import type { RunsHandlerOptions } from '../../src/http/runs-handler-options.js';
import { postJson, serveRuns, type RunsServer } from './http-kit.js';

const open = closedAfterEach<{ served: RunsServer; fake: FakeOpenAIServer }>(['served', 'fake']);

/** Long enough that a body read without a slot would still be held when the test looks. */
const BODY_TIMEOUT_MS = 120_000;

/** A server whose every run calls `bash` once (which asks for approval by default), then ends. */
async function serveAskingRuns(options: RunsHandlerOptions): Promise<RunsServer> {
  open.fake = await FakeOpenAIServer.start({
    handler: (request) => (turnOf(request).toolResults.length > 0 ? { text: 'done' } : { toolCalls: [{ name: 'bash', arguments: { command: 'echo asked' } }] }),
  });
  open.served = await serveRuns({ model: openAIModelFor(open.fake) }, options);
  return open.served;
}

/** Starts a run and resolves the path that answers its approval, once it waits for one. */
async function runWaitingForApproval(served: RunsServer): Promise<{ runId: string; approve: string }> {
  const started = await postJson(`${served.url}/runs`, { prompt: 'go' });
  expect(started.status).toBe(201);
  const { runId } = started.body as { runId: string };
  await vi.waitFor(() => expect(served.engine.runs.pendingApprovals(runId)).toHaveLength(1), { timeout: 15_000 });
  const { approvalId } = served.engine.runs.pendingApprovals(runId)[0]!;
  return { runId, approve: `${served.url}/runs/${runId}/approvals/${approvalId}` };
}

/** Resolves when the run has ended (it was answered and went on). */
async function ended(served: RunsServer, runId: string): Promise<void> {
  await vi.waitFor(() => expect(served.engine.runs.get(runId)?.state).toBe('done'), { timeout: 15_000 });
}

/**
 * `POST /runs/:id/approvals/:approvalId` reads a body: it takes a slot first, as a start does,
 * but one of the handler's own `maxControlRequests`, never a run's. Runs waiting for approval
 * hold the run slots; an answer that waited for one of those would never come.
 */
describe('runsHandler: answers to approvals are read on slots of their own', () => {
  it('with every run slot held by a run waiting for approval, the approvals are still answered', async () => {
    const served = await serveAskingRuns({ maxRuns: 2, bodyTimeoutMs: BODY_TIMEOUT_MS });
    const waiting = [await runWaitingForApproval(served), await runWaitingForApproval(served)];
    expect((await postJson(`${served.url}/runs`, { prompt: 'one more' })).status).toBe(429);
    for (const { runId, approve } of waiting) {
      expect((await postJson(approve, { decision: 'approve' })).status).toBe(204);
      await ended(served, runId);
    }
    // The runs gave their slots back when they ended.
    expect((await postJson(`${served.url}/runs`, { prompt: 'one more' })).status).toBe(201);
  });

  it('beyond maxControlRequests slow answers, one more is refused 429 at once (Retry-After, connection closed); a whole answer is served once they are gone', async () => {
    const served = await serveAskingRuns({ maxControlRequests: 2, bodyTimeoutMs: BODY_TIMEOUT_MS });
    const { runId, approve } = await runWaitingForApproval(served);
    const slow = [slowBody(approve, '{"decision":'), slowBody(approve, '{"decision":')];
    await vi.waitFor(() => expect(slow.every((s) => s.sent)).toBe(true));
    // Before the mend it was read like the others, and answered only when its body timed out.
    const refused = await answerOf(slowBody(approve, '{"decision":'));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.body)).toEqual({ error: expect.stringContaining('maxControlRequests') });
    // Starts take run slots, not these: a run still starts.
    expect((await postJson(`${served.url}/runs`, { prompt: 'another' })).status).toBe(201);
    for (const s of slow) s.req.destroy();
    await vi.waitFor(async () => expect((await postJson(approve, { decision: 'approve' })).status).toBe(204), { timeout: 15_000 });
    await ended(served, runId);
  });

  it('gives its slot back whatever becomes of the answer: refused, too large, too slow, abandoned', async () => {
    const served = await serveAskingRuns({ maxControlRequests: 1, maxBodyBytes: 4096, bodyTimeoutMs: 3_000 });
    const { runId, approve } = await runWaitingForApproval(served);
    // Each is answered on the one slot: had one kept it, the next would be 429.
    expect((await postJson(approve, '{"decision":', { raw: true })).status).toBe(400);
    expect((await postJson(approve, [1, 2])).status).toBe(400);
    expect((await postJson(approve, { decision: 'maybe' })).status).toBe(400);
    expect((await postJson(approve, { decision: 'approve', comment: 'x'.repeat(5000) })).status).toBe(413);
    expect((await postJson(`${served.url}/runs/run_nobody/approvals/approval_nobody`, { decision: 'approve' })).status).toBe(404);
    expect((await postJson(approve.replace(/approval_[^/]*$/, 'approval_nobody'), { decision: 'approve' })).status).toBe(404);
    // A body that never ends: cut at bodyTimeoutMs.
    expect((await answerOf(slowBody(approve, '{"decision":', 1000))).status).toBe(408);
    // A client that leaves mid-body: its slot is given back when the server sees it go.
    const left: SlowBody = slowBody(approve, '{"decision":', 1000);
    await vi.waitFor(() => expect(left.sent).toBe(true));
    left.req.destroy();
    // Nothing was lost: the approval still waits, and is answered.
    expect(served.engine.runs.pendingApprovals(runId)).toHaveLength(1);
    await vi.waitFor(async () => expect((await postJson(approve, { decision: 'approve' })).status).toBe(204), { timeout: 15_000 });
    await ended(served, runId);
  });
});
