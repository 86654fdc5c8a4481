import { describe, expect, it } from 'vitest';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { outcomeOf, postRunAgentInput, user } from './ag-ui-requests.js';

/**
 * A request that would start a new turn while the thread's run waits for the client is
 * checked whole before the waiting run is given up: a refused one changes nothing, and the
 * waiting run can still be answered. (A frontend tool named like one of the engine's own was
 * refused only by `engine.start`, after the waiting run had been cancelled.)
 */
const agUi = agUiServerPerTest();

const CONFIRM = { name: 'confirm_plan', description: 'Asks the user', parameters: { type: 'object', properties: {} } };

describe('agUiHandler: a refused new turn leaves the waiting run waiting', () => {
  it('refuses a frontend tool named like a built-in (400) without cancelling the run that waits for its frontend call', async () => {
    const served = await agUi.serve({
      main: (turn) => (turn.step === 1 ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: {} }] } : { text: `after: ${turn.toolResults.at(-1)}` }),
    });
    const first = await postRunAgentInput(served.url, { threadId: 't-clash', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_ask'] });
    const clash = await postRunAgentInput(served.url, { threadId: 't-clash', runId: 'r2', messages: [user('go'), user('other')], tools: [CONFIRM, { name: 'bash', description: 'mine' }] });
    expect(clash.status).toBe(400);
    expect((JSON.parse(clash.text) as { error: string }).error).toMatch(/^start: tools\[1\] is named "bash", like a tool of the engine's own/);
    expect(served.engine.runs.list().map((r) => r.state)).toEqual(['running']);
    const answered = await postRunAgentInput(served.url, {
      threadId: 't-clash',
      runId: 'r3',
      messages: [user('go'), { id: 'tool-1', role: 'tool', toolCallId: 'call_ask', content: 'yes' }],
      tools: [CONFIRM],
    });
    expect(answered.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'after: yes' });
    expect(served.engine.runs.list().map((r) => r.state)).toEqual(['done']);
  }, 30_000);
});
