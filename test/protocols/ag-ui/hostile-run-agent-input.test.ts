import { describe, expect, it } from 'vitest';
import { MCP_MAX_TOOLS } from '../../../src/mcp/mcp-tool-limits.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { postRunAgentInput, user } from './ag-ui-requests.js';

/** `RunAgentInput` bodies no AG-UI frontend sends, from a client out to hurt the server. */
const agUi = agUiServerPerTest();

describe('agUiHandler: hostile RunAgentInput bodies', () => {
  it('refuses resume entries that are not objects (400, not a 500), and the waiting run still waits for its answer', async () => {
    const served = await agUi.serve({
      main: (turn) => (turn.step === 1 ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: {} }] } : { text: `after: ${turn.toolResults.at(-1)}` }),
    });
    const tools = [{ name: 'confirm_plan', description: 'Asks the user', parameters: { type: 'object', properties: {} } }];
    const first = await postRunAgentInput(served.url, { threadId: 't-resume', runId: 'r1', messages: [user('go')], tools });
    expect(first.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { pendingToolCallIds: ['call_ask'] } });
    const bad = await postRunAgentInput(served.url, { threadId: 't-resume', runId: 'r2', messages: [user('go')], tools, resume: [null, 7] });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual({ error: expect.stringMatching(/resume\[0\] must be an object/) });
    const answered = await postRunAgentInput(served.url, {
      threadId: 't-resume',
      runId: 'r3',
      messages: [user('go'), { id: 'tool-1', role: 'tool', toolCallId: 'call_ask', content: 'yes' }],
      tools,
    });
    expect(answered.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'after: yes' });
  }, 30_000);

  it('refuses more frontend tools than an MCP server may offer (400), before any run starts', async () => {
    // 50,000 small tools fit in the body limit, and their checks held the event loop for seconds.
    const served = await agUi.serve({ main: () => ({ text: 'never asked' }) });
    const tools = Array.from({ length: MCP_MAX_TOOLS + 1 }, (_, i) => ({ name: `tool_${i}` }));
    const answer = await postRunAgentInput(served.url, { threadId: 't-many', runId: 'r1', messages: [user('go')], tools });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ error: `tools has ${MCP_MAX_TOOLS + 1} tools; at most ${MCP_MAX_TOOLS} may be offered (as many as an MCP server's): send the ones this turn needs` });
    expect(served.engine.runs.list()).toEqual([]);
    expect(served.fixture.server.requests).toHaveLength(0);
  }, 30_000);

  it('refuses a repeated request that answers nothing and brings no prompt (400) without cancelling the run that waits', async () => {
    // A client that sends its continuation twice: the copy answers a call already answered.
    const served = await agUi.serve({
      main: (turn) => (turn.step <= 2 ? { toolCalls: [{ id: `call_${turn.step}`, name: 'confirm_plan', arguments: {} }] } : { text: `after: ${turn.toolResults.join(', ')}` }),
    });
    const tools = [{ name: 'confirm_plan', description: 'Asks the user', parameters: { type: 'object', properties: {} } }];
    const first = await postRunAgentInput(served.url, { threadId: 't-dup', runId: 'r1', messages: [user('go')], tools });
    expect(first.events.at(-1)).toMatchObject({ outcome: { pendingToolCallIds: ['call_1'] } });
    const continuation = { threadId: 't-dup', runId: 'r2', messages: [user('go'), { id: 'tool-1', role: 'tool', toolCallId: 'call_1', content: 'yes' }], tools };
    const second = await postRunAgentInput(served.url, continuation);
    expect(second.events.at(-1)).toMatchObject({ outcome: { pendingToolCallIds: ['call_2'] } });
    const copy = await postRunAgentInput(served.url, continuation);
    expect(copy.status).toBe(400);
    expect(served.engine.runs.list().map((r) => r.state)).toEqual(['running']);
    const third = await postRunAgentInput(served.url, {
      threadId: 't-dup',
      runId: 'r3',
      messages: [...continuation.messages, { id: 'tool-2', role: 'tool', toolCallId: 'call_2', content: 'also yes' }],
      tools,
    });
    expect(third.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'after: yes, also yes' });
  }, 30_000);
});
