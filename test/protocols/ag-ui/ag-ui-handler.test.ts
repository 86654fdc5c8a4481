import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agUiServerPerTest, type AgUiServeOptions } from '../../support/ag-ui-server-per-test.js';
import { MULTITASK_ROUTES, runClient, TASKS, TOKEN } from '../protocol-kit.js';

/**
 * `agUiHandler` driven by `@ag-ui/client`'s `HttpAgent` in its own process: what an AG-UI
 * frontend (CopilotKit and the like) receives, with the client's own checks of the event
 * sequence (a run that finished with a subagent, a message or a step still open, or events
 * after RUN_FINISHED, would make it throw).
 */
const CLIENT = fileURLToPath(new URL('./ag-ui-client-process.ts', import.meta.url));

interface Line {
  readonly kind: 'event' | 'round' | 'error' | 'done';
  readonly round?: number;
  readonly event?: Record<string, unknown> & { type: string };
  readonly outcome?: string;
  readonly pendingToolCallIds?: string[];
  readonly interrupts?: Array<Record<string, unknown>>;
  readonly message?: string;
  readonly messages?: Array<Record<string, unknown>>;
}

const agUi = agUiServerPerTest();

const serve = (routes = MULTITASK_ROUTES, handler: AgUiServeOptions['handler'] = {}) => agUi.serve(routes, { handler });

const events = (lines: readonly Line[]) => lines.filter((l) => l.kind === 'event').map((l) => l.event!);

describe('agUiHandler through @ag-ui/client HttpAgent', () => {
  it('shows a multitask of three as three subagents, each a step named by its task description, and finishes the run once', async () => {
    const served = await serve();
    const lines = await runClient<Line>(CLIENT, { url: served.url, token: TOKEN, threadId: 'thread-1', prompt: 'Survey the project' });
    expect(lines.filter((l) => l.kind === 'error')).toEqual([]);
    const seen = events(lines);
    expect(seen[0]!.type).toBe('RUN_STARTED');
    expect(seen.filter((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR').map((e) => e.type)).toEqual(['RUN_FINISHED']);
    expect(seen.at(-1)!.type).toBe('RUN_FINISHED');
    // each child: its step, its subagent (named by its agent, described by its task), its own message
    const steps = seen.filter((e) => e.type === 'STEP_STARTED').map((e) => e['stepName']);
    expect(steps.sort()).toEqual(TASKS.map((t) => t.description).sort());
    const subagents = seen.filter((e) => e.type === 'SUBAGENT_STARTED');
    expect(subagents.map((e) => e['description']).sort()).toEqual(TASKS.map((t) => t.description).sort());
    expect(subagents.every((e) => e['name'] === 'alpha' && e['parentToolCallId'] === 'call_multi')).toBe(true);
    const ids = subagents.map((e) => e['subagentRunId'] as string);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) {
      const text = seen.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT' && e['subagentRunId'] === id).map((e) => e['delta']).join('');
      expect(text).toMatch(/^alpha did: /);
      expect(seen.filter((e) => e.type === 'SUBAGENT_FINISHED' && e['subagentRunId'] === id)).toHaveLength(1);
    }
    // the main run's own tool call and its result
    expect(seen.find((e) => e.type === 'TOOL_CALL_START')).toMatchObject({ toolCallId: 'call_multi', toolCallName: 'multitask' });
    expect(seen.find((e) => e.type === 'TOOL_CALL_RESULT' && e['toolCallId'] === 'call_multi')).toBeDefined();
    const finished = seen.at(-1)!;
    expect(finished['result']).toBe('All three done: 1 results.');
    // the client's own view: the answer is an assistant message of the thread
    const messages = lines.at(-1)!.messages!;
    expect(messages.some((m) => m['role'] === 'assistant' && m['content'] === 'All three done: 1 results.')).toBe(true);
  }, 60_000);

  it('cancels the run when the client aborts it: the model request is aborted at the fake server', async () => {
    const served = await serve({ main: () => ({ text: 'Thinking about it for a long time', chunkSize: 4, stallAfterChunks: 2 }) });
    const lines = await runClient<Line>(CLIENT, { url: served.url, token: TOKEN, threadId: 'thread-cancel', prompt: 'Go', abortOn: 'TEXT_MESSAGE_CONTENT' });
    expect(events(lines).some((e) => e.type === 'TEXT_MESSAGE_CONTENT')).toBe(true);
    const request = await served.fixture.server.waitForClosed(0);
    expect(request.aborted).toBe(true);
    await expect.poll(() => served!.engine.runs.list()[0]?.state).toBe('cancelled');
  }, 60_000);
});

describe('agUiHandler: the client round trips of AG-UI', () => {
  it('offers the frontend tools to the model; a call ends the AG-UI run, and the tool message of the next request continues the run', async () => {
    const served = await serve({
      main: (turn) =>
        turn.toolResults.length === 0
          ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: { plan: 'delete the logs' } }] }
          : { text: `The user said: ${turn.toolResults.at(-1)}` },
    });
    const confirmPlan = { name: 'confirm_plan', description: 'Asks the user to confirm a plan', parameters: { type: 'object', properties: { plan: { type: 'string' } }, required: ['plan'] } };
    const lines = await runClient<Line>(CLIENT, { url: served.url, token: TOKEN, threadId: 'thread-tools', prompt: 'Clean up', tools: [confirmPlan], toolResult: 'yes, go ahead' });
    expect(lines.filter((l) => l.kind === 'error')).toEqual([]);
    const rounds = lines.filter((l) => l.kind === 'round');
    expect(rounds.map((r) => [r.outcome, r.pendingToolCallIds])).toEqual([
      ['success', ['call_ask']],
      ['success', []],
    ]);
    const first = events(lines.filter((l) => l.round === 1));
    expect(first.find((e) => e.type === 'TOOL_CALL_START')).toMatchObject({ toolCallId: 'call_ask', toolCallName: 'confirm_plan' });
    expect(first.find((e) => e.type === 'TOOL_CALL_ARGS')).toMatchObject({ delta: JSON.stringify({ plan: 'delete the logs' }) });
    const second = events(lines.filter((l) => l.round === 2));
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'The user said: yes, go ahead' });
    // the model was offered the tool, and read the frontend's result as the call's answer
    const requests = served.fixture.server.requests;
    expect(requests[0]!.body.tools?.some((t) => t.function?.name === 'confirm_plan')).toBe(true);
    expect(requests[1]!.body.messages?.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_ask', content: 'yes, go ahead' });
    // one run of ours, continued: not a second run
    expect(served.engine.runs.list()).toHaveLength(1);
  }, 60_000);

  it('shows a subagent\'s approval as an interrupt (its subagent suspended), and the resume of the next request approves it', async () => {
    const served = await serve({
      main: (turn) =>
        turn.step === 1 ? { toolCalls: [{ id: 'call_multi', name: 'multitask', arguments: { tasks: [TASKS[0]] } }] } : { text: `Done: ${turn.toolResults.at(-1)}` },
      alpha: (turn) => (turn.step === 1 ? { toolCalls: [{ id: 'call_0', name: 'bash', arguments: { command: 'echo approved-run' } }] } : { text: `alpha saw ${turn.toolResults.at(-1)?.split('\n')[0]}` }),
    });
    const lines = await runClient<Line>(CLIENT, { url: served.url, token: TOKEN, threadId: 'thread-approval', prompt: 'Count', decision: 'approve' });
    expect(lines.filter((l) => l.kind === 'error')).toEqual([]);
    const rounds = lines.filter((l) => l.kind === 'round');
    expect(rounds.map((r) => r.outcome)).toEqual(['interrupt', 'success']);
    const interrupt = rounds[0]!.interrupts![0]!;
    const pending = served.engine.runs.list()[0]!;
    expect(interrupt).toMatchObject({ reason: 'tool_approval', metadata: { toolName: 'bash' } });
    const first = events(lines.filter((l) => l.round === 1));
    const sub = first.find((e) => e.type === 'SUBAGENT_STARTED')!['subagentRunId'];
    expect(interrupt['subagentRunId']).toBe(sub);
    expect(first.find((e) => e.type === 'SUBAGENT_FINISHED')).toMatchObject({ subagentRunId: sub, outcome: { type: 'suspended' } });
    // the next AG-UI run reopens the same subagent and shows its end
    const second = events(lines.filter((l) => l.round === 2));
    expect(second.find((e) => e.type === 'SUBAGENT_STARTED')).toMatchObject({ subagentRunId: sub });
    expect(second.filter((e) => e.type === 'TEXT_MESSAGE_CONTENT' && e['subagentRunId'] === sub).map((e) => e['delta']).join('')).toBe('alpha saw approved-run');
    expect(second.at(-1)!.type).toBe('RUN_FINISHED');
    expect(String(second.at(-1)!['result'])).toContain('<![CDATA[alpha saw approved-run]]>');
    expect(served.engine.runs.list().map((r) => [r.runId, r.state])).toEqual([[pending.runId, 'done']]);
  }, 60_000);
});

describe('agUiHandler: a run that waits for its client', () => {
  const confirmPlan = { name: 'confirm_plan', description: 'Asks the user to confirm a plan', parameters: { type: 'object', properties: {} } };
  const routes = {
    main: (turn: { prompt: string }) => (turn.prompt === 'first' ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: {} }] } : { text: `fresh turn: ${turn.prompt}` }),
  };

  it('is cancelled when the next request brings a new user message instead of the result, which starts a new turn', async () => {
    const served = await serve(routes);
    const lines = await runClient<Line>(CLIENT, { url: served.url, token: TOKEN, threadId: 'thread-moved-on', prompt: 'first', tools: [confirmPlan], followUp: 'second' });
    expect(lines.filter((l) => l.kind === 'error')).toEqual([]);
    expect(lines.filter((l) => l.kind === 'round').map((r) => [r.outcome, r.pendingToolCallIds])).toEqual([
      ['success', ['call_ask']],
      ['success', []],
    ]);
    expect(events(lines.filter((l) => l.round === 2)).at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'fresh turn: second' });
    expect(served.engine.runs.list().map((r) => r.state)).toEqual(['cancelled', 'done']);
  }, 60_000);

  it('is cancelled when nobody continues it within clientWaitMs (it would hold its thread and slot)', async () => {
    const served = await serve(routes, { clientWaitMs: 50 });
    const lines = await runClient<Line>(CLIENT, { url: served.url, token: TOKEN, threadId: 'thread-left', prompt: 'first', tools: [confirmPlan] });
    expect(lines.filter((l) => l.kind === 'round').map((r) => r.pendingToolCallIds)).toEqual([['call_ask']]);
    await expect.poll(() => served!.engine.runs.list()[0]?.state, { timeout: 10_000 }).toBe('cancelled');
  }, 60_000);
});

describe('agUiHandler: the same guards as the runs routes', () => {
  it('refuses a client without the token (401), a run over the cap (429), and a second run on a busy thread (409)', async () => {
    const served = await serve({ main: () => ({ hang: true }) }, { maxRuns: 2 });
    const url = served.url;
    const noToken = await runClient<Line>(CLIENT, { url, threadId: 'thread-a', prompt: 'hi' });
    expect(noToken.find((l) => l.kind === 'error')?.message).toMatch(/401/);
    expect(served.fixture.server.requests).toHaveLength(0);
    // a run holds thread-a (its model never answers): the thread is busy
    const holdingA = runClient<Line>(CLIENT, { url, token: TOKEN, threadId: 'thread-a', prompt: 'hold' });
    await served.fixture.server.waitForRequests(1, 30_000);
    const busy = await runClient<Line>(CLIENT, { url, token: TOKEN, threadId: 'thread-a', prompt: 'again' });
    expect(busy.find((l) => l.kind === 'error')?.message).toMatch(/409/);
    // a second run takes the second slot: a third is told to come back later
    const holdingB = runClient<Line>(CLIENT, { url, token: TOKEN, threadId: 'thread-b', prompt: 'hold' });
    await served.fixture.server.waitForRequests(2, 30_000);
    const overCap = await runClient<Line>(CLIENT, { url, token: TOKEN, threadId: 'thread-c', prompt: 'more' });
    expect(overCap.find((l) => l.kind === 'error')?.message).toMatch(/429/);
    expect(served.fixture.server.requests).toHaveLength(2);
    await agUi.close();
    // the held runs were cancelled by the engine's close: each client saw its one RUN_ERROR
    for (const held of await Promise.all([holdingA, holdingB])) expect(events(held).filter((e) => e.type === 'RUN_ERROR')).toHaveLength(1);
  }, 90_000);
});
