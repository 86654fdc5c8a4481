import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { unwrapEvent } from '../../src/events/operators/unwrap-task-events.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { testAgent } from '../support/agent-turns.js';
import { scriptedRoutes, scriptedSteps } from '../support/scripted-routes.js';
import { oneTo, openEvents, postJson, serveRuns, type RunsServer, type SseFrame } from './http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** main → task(worker) → worker calls bash, which asks for approval by default. */
async function nestedBashServer(): Promise<RunsServer> {
  const model = new ScriptedModel(
    scriptedRoutes({
      main: scriptedSteps({ toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'run it', description: 'run the command' } }] }),
      worker: scriptedSteps({ toolCalls: [{ id: 'c-bash', name: 'bash', args: { command: 'echo approved-over-http' } }] }),
    }),
  );
  const server = await serveRuns({ model });
  server.engine.agents.add(testAgent('worker'));
  return server;
}

const inner = (frame: SseFrame): AgentEvent | undefined =>
  frame.data !== undefined && frame.event === undefined ? unwrapEvent((JSON.parse(frame.data) as { event: AgentEvent }).event).event : undefined;

describe('approvals over HTTP', () => {
  it('a nested task asks; POST /runs/:id/approvals/:approvalId answers it; the run goes on with the result', async () => {
    served = await nestedBashServer();
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    const stream = await openEvents(`${served.url}/runs/${runId}/events`);
    const pending = await stream.waitFor((f) => inner(f)?.type === 'HITLPending');
    expect(inner(pending)).toMatchObject({ type: 'HITLPending', approvalId: expect.stringMatching(/^approval_/), callId: 'c-bash', toolName: 'bash', agentName: 'worker' });
    const { approvalId } = inner(pending) as { approvalId: string };
    expect(JSON.parse(pending.data!).event).toMatchObject({ type: 'TaskWrap', taskAgentName: 'worker' });
    expect(served.engine.runs.pendingApprovals(runId)).toEqual([{ approvalId, callId: 'c-bash', toolName: 'bash', agentName: 'worker', taskId: expect.stringMatching(/^task_/) }]);
    // The model's call id is not an approval's name: refused, saying what to send instead.
    const byCall = await postJson(`${served.url}/runs/${runId}/approvals/c-bash`, { decision: 'approve' });
    expect(byCall).toMatchObject({ status: 404, body: { error: expect.stringContaining('"c-bash" is a call id, not an approval id') } });
    // Naming the wrong task (here: the main agent) is refused too.
    expect((await postJson(`${served.url}/runs/${runId}/approvals/${approvalId}`, { decision: 'approve', taskId: null })).status).toBe(404);
    const answered = await fetch(`${served.url}/runs/${runId}/approvals/${approvalId}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ decision: 'approve' }),
    });
    expect(answered.status).toBe(204);
    expect(await answered.text()).toBe('');
    await stream.ended;
    expect(stream.frames.map(inner).find((e) => e?.type === 'HITLDecided')).toMatchObject({ decision: 'approve', approvalId, callId: 'c-bash' });
    const end = stream.events().at(-1)!.event;
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: false });
    expect((end as { text: string }).text).toContain('approved-over-http');
    expect(stream.events().map((e) => e.seq)).toEqual(oneTo(stream.events().length));
    // answered once: a second answer finds nothing pending
    expect((await postJson(`${served.url}/runs/${runId}/approvals/${approvalId}`, { decision: 'approve' })).status).toBe(404);
  });

  it('a rejection with a comment reaches the model; the call does not run', async () => {
    served = await nestedBashServer();
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    const stream = await openEvents(`${served.url}/runs/${runId}/events`);
    const { approvalId } = inner(await stream.waitFor((f) => inner(f)?.type === 'HITLPending')) as { approvalId: string };
    expect((await postJson(`${served.url}/runs/${runId}/approvals/${approvalId}`, { decision: 'reject', comment: 'not today' })).status).toBe(204);
    await stream.ended;
    const end = stream.events().at(-1)!.event as { text: string };
    expect(end.text).toContain('rejected: not today');
    expect(end.text).not.toContain('approved-over-http\n');
  });

  it('cancelling the run while it waits fails closed: the call never runs, nothing is left to answer', async () => {
    served = await nestedBashServer();
    const { runId } = (await postJson(`${served.url}/runs`, { prompt: 'go' })).body as { runId: string };
    const stream = await openEvents(`${served.url}/runs/${runId}/events`);
    const { approvalId } = inner(await stream.waitFor((f) => inner(f)?.type === 'HITLPending')) as { approvalId: string };
    expect((await fetch(`${served.url}/runs/${runId}`, { method: 'DELETE' })).status).toBe(202);
    await stream.ended;
    expect(stream.frames.at(-1)!.event).toBe('cancelled');
    expect(stream.frames.map(inner).some((e) => e?.type === 'ToolCallEnd' && e.toolName === 'bash' && !e.error)).toBe(false);
    expect((await postJson(`${served.url}/runs/${runId}/approvals/${approvalId}`, { decision: 'approve' })).status).toBe(404);
  });
});
