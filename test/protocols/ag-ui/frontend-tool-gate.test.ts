import { describe, expect, it } from 'vitest';
import type { PermissionRuleInput } from '../../../src/permission/permission-rule.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import type { AgentRoute } from '../../support/delegation-fixture.js';
import { outcomeOf, postRunAgentInput, user } from './ag-ui-requests.js';

/**
 * A frontend tool's call is left to the client (`pendingToolCallIds`) only once our side has
 * let it run: the permission rules allowed it (an `ask` answered) and its arguments fit its
 * schema. Before, the AG-UI run ended at the call's start, so the frontend was told to run a
 * call the rules then denied, or one still waiting for its approval.
 */
const CONFIRM = { name: 'confirm_plan', description: 'Asks the user to confirm a plan', parameters: { type: 'object', properties: { plan: { type: 'string' } } } };

const agUi = agUiServerPerTest();

const serve = async (main: AgentRoute, permissionRules: PermissionRuleInput[] = []): Promise<string> => (await agUi.serve({ main }, { engine: { permissionRules } })).url;

const toolMessage = (toolCallId: string, content: string, n: number) => ({ id: `tool-${n}`, role: 'tool', toolCallId, content });

/** Calls the frontend tool at step 1, then answers with what the call returned. */
const callOnce: AgentRoute = (turn) =>
  turn.step === 1 ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: { plan: 'drop the table' } }] } : { text: `after: ${turn.toolResults.at(-1)}` };

describe('agUiHandler: a frontend tool call goes to the client only once it may run', () => {
  it('never asks the client to run a call the rules deny: the denial is shown and the run goes on in the same AG-UI run', async () => {
    const url = await serve(callOnce, [{ tool: 'confirm_plan', action: 'deny' }]);
    const answer = await postRunAgentInput(url, { threadId: 't-deny', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(answer.status).toBe(200);
    expect(outcomeOf(answer)?.['pendingToolCallIds'] ?? []).toEqual([]);
    expect(answer.events.filter((e) => e['toolCallId'] === 'call_ask')).toEqual([]);
    const refusal = answer.events.find((e) => e.type === 'CUSTOM' && e['name'] === 'rxharness.ToolCallEnd');
    expect(refusal?.['value']).toMatchObject({ callId: 'call_ask', text: expect.stringMatching(/denied/) });
    expect(answer.events.at(-1)?.['result']).toMatch(/^after: .*denied/);
    expect(agUi.served!.engine.runs.list().map((r) => r.state)).toEqual(['done']);
  }, 30_000);

  it('asks for the approval first (an interrupt), and leaves the call to the client only once it is approved', async () => {
    const url = await serve(callOnce, [{ tool: 'confirm_plan', action: 'ask' }]);
    const first = await postRunAgentInput(url, { threadId: 't-ask', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ type: 'interrupt' });
    expect(outcomeOf(first)?.['pendingToolCallIds']).toBeUndefined();
    const interrupt = (outcomeOf(first)!['interrupts'] as Array<Record<string, unknown>>)[0]!;
    expect(interrupt).toMatchObject({ toolCallId: 'call_ask', metadata: { toolName: 'confirm_plan' } });
    const second = await postRunAgentInput(url, {
      threadId: 't-ask',
      runId: 'r2',
      messages: [user('go')],
      tools: [CONFIRM],
      resume: [{ interruptId: interrupt['id'], status: 'resolved', payload: { decision: 'approve' } }],
    });
    expect(outcomeOf(second)).toMatchObject({ type: 'success', pendingToolCallIds: ['call_ask'] });
    const third = await postRunAgentInput(url, { threadId: 't-ask', runId: 'r3', messages: [user('go'), toolMessage('call_ask', 'confirmed', 1)], tools: [CONFIRM] });
    expect(third.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'after: confirmed' });
  }, 30_000);

  it('does not ask the client to run a call whose arguments do not fit the tool\'s schema', async () => {
    const url = await serve((turn) =>
      turn.step === 1 ? { toolCalls: [{ id: 'call_bad', name: 'confirm_plan', arguments: { plan: 42 } }] } : { text: `after: ${turn.toolResults.at(-1)}` },
    );
    const answer = await postRunAgentInput(url, { threadId: 't-schema', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(outcomeOf(answer)?.['pendingToolCallIds'] ?? []).toEqual([]);
    expect(answer.events.at(-1)?.['result']).toMatch(/^after: .*do not match its schema/);
  }, 30_000);

  it('asks the client again when the model repeats a call id at a later step (a server without ids gives call_0 at every step)', async () => {
    const url = await serve((turn) =>
      turn.step <= 2
        ? { toolCalls: [{ id: 'call_0', name: 'confirm_plan', arguments: { plan: turn.step === 1 ? 'rename a file' : 'drop the table' } }] }
        : { text: `answers: ${turn.toolResults.join(' | ')}` },
    );
    const first = await postRunAgentInput(url, { threadId: 't-repeat', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_0'] });
    const yes = toolMessage('call_0', 'yes to renaming', 1);
    const second = await postRunAgentInput(url, { threadId: 't-repeat', runId: 'r2', messages: [user('go'), yes], tools: [CONFIRM] });
    // the second call is a new question, under an id of its own (the client would merge two calls of one id)
    expect(outcomeOf(second)).toMatchObject({ pendingToolCallIds: ['call_0~2'] });
    const no = toolMessage('call_0~2', 'no, keep the table', 2);
    const third = await postRunAgentInput(url, { threadId: 't-repeat', runId: 'r3', messages: [user('go'), yes, no], tools: [CONFIRM] });
    expect(third.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'answers: yes to renaming | no, keep the table' });
  }, 30_000);

  it('leaves two frontend calls of one step to the client one at a time, as each starts', async () => {
    const url = await serve((turn) =>
      turn.step === 1
        ? { toolCalls: [{ id: 'call_a', name: 'confirm_plan', arguments: { plan: 'a' } }, { id: 'call_b', name: 'confirm_plan', arguments: { plan: 'b' } }] }
        : { text: `answers: ${turn.toolResults.join(' | ')}` },
    );
    const first = await postRunAgentInput(url, { threadId: 't-two', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    // each call shown only as its tool starts: call_b is no call to run while call_a waits
    const shown = (answer: typeof first) => answer.events.filter((e) => e.type === 'TOOL_CALL_START').map((e) => e['toolCallId']);
    expect(shown(first)).toEqual(['call_a']);
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_a'] });
    const a = toolMessage('call_a', 'yes to a', 1);
    const second = await postRunAgentInput(url, { threadId: 't-two', runId: 'r2', messages: [user('go'), a], tools: [CONFIRM] });
    expect(shown(second)).toEqual(['call_b']);
    expect(outcomeOf(second)).toMatchObject({ pendingToolCallIds: ['call_b'] });
    const b = toolMessage('call_b', 'no to b', 2);
    const third = await postRunAgentInput(url, { threadId: 't-two', runId: 'r3', messages: [user('go'), a, b], tools: [CONFIRM] });
    expect(third.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'answers: yes to a | no to b' });
  }, 30_000);

  it('keeps the answer of a client that ran both calls of a step when asked for the first', async () => {
    const url = await serve((turn) =>
      turn.step === 1
        ? { toolCalls: [{ id: 'call_a', name: 'confirm_plan', arguments: { plan: 'a' } }, { id: 'call_b', name: 'confirm_plan', arguments: { plan: 'b' } }] }
        : { text: `answers: ${turn.toolResults.join(' | ')}` },
    );
    const first = await postRunAgentInput(url, { threadId: 't-eager', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_a'] });
    const both = [user('go'), toolMessage('call_a', 'yes to a', 1), toolMessage('call_b', 'yes to b', 2)];
    const second = await postRunAgentInput(url, { threadId: 't-eager', runId: 'r2', messages: both, tools: [CONFIRM] });
    expect(second.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'answers: yes to a | yes to b' });
  }, 30_000);

  it('reads a new user message after a repeated call id as a new turn, not the old call\'s answer in the history', async () => {
    const url = await serve((turn) =>
      turn.prompt === 'go'
        ? { toolCalls: [{ id: 'call_0', name: 'confirm_plan', arguments: { plan: `step ${turn.step}` } }] }
        : { text: `fresh turn: ${turn.prompt}` },
    );
    const first = await postRunAgentInput(url, { threadId: 't-moved-on', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_0'] });
    const history = [user('go'), { id: 'msg-1', role: 'assistant', toolCalls: [{ id: 'call_0', type: 'function', function: { name: 'confirm_plan', arguments: '{}' } }] }, toolMessage('call_0', 'yes', 1)];
    const second = await postRunAgentInput(url, { threadId: 't-moved-on', runId: 'r2', messages: history, tools: [CONFIRM] });
    expect(outcomeOf(second)).toMatchObject({ pendingToolCallIds: ['call_0~2'] });
    const movedOn = [...history, { id: 'msg-2', role: 'assistant', toolCalls: [{ id: 'call_0~2', type: 'function', function: { name: 'confirm_plan', arguments: '{}' } }] }, user('never mind')];
    const third = await postRunAgentInput(url, { threadId: 't-moved-on', runId: 'r3', messages: movedOn, tools: [CONFIRM] });
    expect(third.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'fresh turn: never mind' });
    expect(agUi.served!.engine.runs.list().map((r) => r.state)).toEqual(['cancelled', 'done']);
  }, 30_000);

  it('drops an answer the client sent early for a call the rules then deny: the model reads the denial', async () => {
    const url = await serve(
      (turn) =>
        turn.step === 1
          ? { toolCalls: [{ id: 'call_a', name: 'confirm_plan', arguments: { plan: 'a' } }, { id: 'call_x', name: 'wipe_data', arguments: {} }] }
          : { text: `answers: ${turn.toolResults.join(' | ')}` },
      [{ tool: 'wipe_data', action: 'deny' }],
    );
    const wipe = { name: 'wipe_data', description: 'Wipes the data', parameters: { type: 'object', properties: {} } };
    const first = await postRunAgentInput(url, { threadId: 't-early-deny', runId: 'r1', messages: [user('go')], tools: [CONFIRM, wipe] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_a'] });
    const both = [user('go'), toolMessage('call_a', 'yes to a', 1), toolMessage('call_x', 'wiped', 2)];
    const second = await postRunAgentInput(url, { threadId: 't-early-deny', runId: 'r2', messages: both, tools: [CONFIRM, wipe] });
    expect(second.events.at(-1)?.['result']).toMatch(/^answers: yes to a \| .*denied/);
    expect(String(second.events.at(-1)?.['result'])).not.toContain('wiped');
  }, 30_000);
});
