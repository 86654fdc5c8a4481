import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PermissionRuleInput } from '../../../src/permission/permission-rule.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import type { AgentRoute } from '../../support/delegation-fixture.js';
import { runClient, TOKEN } from '../protocol-kit.js';
import { outcomeOf, postRunAgentInput, type AgUiAnswer, type WireEvent } from './ag-ui-requests.js';

/**
 * A frontend tool's `TOOL_CALL_START/ARGS/END` reach the client only once the call may run
 * (the rules allowed it, an `ask` was approved, its arguments fit the schema). A client that
 * runs a frontend call as soon as it has seen it without a result (CopilotKit-style runtimes
 * read the messages, not `pendingToolCallIds`) ran calls the rules refused, and calls still
 * waiting for approval, when they went out at the model's step end. A refused call is shown
 * only as a `CUSTOM` `rxharness.ToolCallEnd`, the refusal: its `TOOL_CALL_START/ARGS/END`, even
 * followed at once by the result, let a client that runs a call at its `TOOL_CALL_END`
 * (`@ag-ui/client`'s `onNewToolCall`) run it before it read the result; and a `TOOL_CALL_RESULT`
 * alone became a tool message answering no call in the client's messages, which it sends back.
 */
const CONFIRM = { name: 'confirm_plan', description: 'Asks the user to confirm a plan', parameters: { type: 'object', properties: { plan: { type: 'string' } } } };
const WIPE = { name: 'wipe_data', description: 'Wipes the data', parameters: { type: 'object', properties: {} } };
const CLIENT = fileURLToPath(new URL('./ag-ui-client-process.ts', import.meta.url));

const agUi = agUiServerPerTest();

const serve = async (main: AgentRoute, permissionRules: PermissionRuleInput[] = []): Promise<string> => (await agUi.serve({ main }, { engine: { permissionRules } })).url;

const user = { id: 'u-go', role: 'user', content: 'go' };
const toolMessage = (toolCallId: string, content: string) => ({ id: `tool-${toolCallId}`, role: 'tool', toolCallId, content });
const starts = (answer: AgUiAnswer): unknown[] => answer.events.filter((e) => e.type === 'TOOL_CALL_START').map((e) => e['toolCallId']);

/** The calls a client could act on: every `TOOL_CALL_END` (a client may run the call there, before it reads the next event). */
const actionable = (events: readonly WireEvent[]): unknown[] => events.filter((e) => e.type === 'TOOL_CALL_END').map((e) => e['toolCallId']);

/** The events of one call, from its `TOOL_CALL_START` to its `TOOL_CALL_RESULT`, in order. */
const eventsOfCall = (answer: AgUiAnswer, toolCallId: string): string[] => answer.events.filter((e) => e['toolCallId'] === toolCallId).map((e) => e.type);

/** The text of a call's refusal: its `rxharness.ToolCallEnd` custom event's. */
function refusalOf(events: readonly WireEvent[], toolCallId: string): unknown {
  const ends = events.filter((e) => e.type === 'CUSTOM' && e['name'] === 'rxharness.ToolCallEnd').map((e) => e['value'] as Record<string, unknown>);
  return ends.find((end) => end['callId'] === toolCallId)?.['text'];
}

/**
 * What is wrong with a client's messages as a chat history: a tool message that answers no
 * call of an earlier assistant message, or a call answered twice (chat servers refuse both).
 */
function historyFaults(messages: ReadonlyArray<Record<string, unknown>>): string[] {
  const called = new Set<unknown>();
  const answered = new Set<unknown>();
  const faults: string[] = [];
  for (const m of messages) {
    if (m['role'] === 'assistant') for (const call of (m['toolCalls'] as Array<Record<string, unknown>> | undefined) ?? []) called.add(call['id']);
    if (m['role'] !== 'tool') continue;
    if (!called.has(m['toolCallId'])) faults.push(`tool message ${String(m['id'])} answers no call (${String(m['toolCallId'])})`);
    if (answered.has(m['toolCallId'])) faults.push(`call ${String(m['toolCallId'])} answered twice (${String(m['id'])})`);
    answered.add(m['toolCallId']);
  }
  return faults;
}

/** A first step that calls `confirm_plan` and then `second`; then the answers the model read. */
const twoCalls =
  (second: { readonly id: string; readonly name: string; readonly arguments: Record<string, unknown> }): AgentRoute =>
  (turn) =>
    turn.step === 1 ? { toolCalls: [{ id: 'call_a', name: 'confirm_plan', arguments: { plan: 'a' } }, second] } : { text: `answers: ${turn.toolResults.join(' | ')}` };

describe('agUiHandler: a frontend call is shown to the client only once it may run', () => {
  it('shows a denied call only as its refusal (a custom event), never while an earlier call of its step waits for the client', async () => {
    const url = await serve(twoCalls({ id: 'call_x', name: 'wipe_data', arguments: {} }), [{ tool: 'wipe_data', action: 'deny' }]);
    const first = await postRunAgentInput(url, { threadId: 't-deny', runId: 'r1', messages: [user], tools: [CONFIRM, WIPE] });
    expect(starts(first)).toEqual(['call_a']);
    expect(actionable(first.events)).toEqual(outcomeOf(first)?.['pendingToolCallIds']);
    const second = await postRunAgentInput(url, { threadId: 't-deny', runId: 'r2', messages: [user, toolMessage('call_a', 'yes')], tools: [CONFIRM, WIPE] });
    expect(eventsOfCall(second, 'call_x')).toEqual([]);
    expect(actionable(second.events)).toEqual([]);
    expect(refusalOf(second.events, 'call_x')).toMatch(/denied/);
    expect(second.events.at(-1)?.['result']).toMatch(/^answers: yes \| .*denied/);
  }, 30_000);

  it('shows a call whose arguments break the schema only as its refusal', async () => {
    const url = await serve(twoCalls({ id: 'call_bad', name: 'confirm_plan', arguments: { plan: 42 } }));
    const first = await postRunAgentInput(url, { threadId: 't-schema', runId: 'r1', messages: [user], tools: [CONFIRM] });
    expect(starts(first)).toEqual(['call_a']);
    const second = await postRunAgentInput(url, { threadId: 't-schema', runId: 'r2', messages: [user, toolMessage('call_a', 'yes')], tools: [CONFIRM] });
    expect(actionable(second.events)).toEqual([]);
    expect(eventsOfCall(second, 'call_bad')).toEqual([]);
    expect(refusalOf(second.events, 'call_bad')).toMatch(/plan/);
  }, 30_000);

  const askOnce: AgentRoute = (turn) =>
    turn.step === 1 ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: { plan: 'drop the table' } }] } : { text: `after: ${turn.toolResults.at(-1)}` };

  const interrupted = async (url: string, threadId: string): Promise<string> => {
    const first = await postRunAgentInput(url, { threadId, runId: 'r1', messages: [user], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ type: 'interrupt' });
    expect(starts(first)).toEqual([]);
    return (outcomeOf(first)!['interrupts'] as Array<Record<string, string>>)[0]!['id']!;
  };

  it('shows a call waiting for approval only once the approval is given, and then leaves it to the client', async () => {
    const url = await serve(askOnce, [{ tool: 'confirm_plan', action: 'ask' }]);
    const interruptId = await interrupted(url, 't-approve');
    const resume = [{ interruptId, status: 'resolved', payload: { decision: 'approve' } }];
    const second = await postRunAgentInput(url, { threadId: 't-approve', runId: 'r2', messages: [user], tools: [CONFIRM], resume });
    expect(eventsOfCall(second, 'call_ask')).toEqual(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END']);
    expect(outcomeOf(second)).toMatchObject({ type: 'success', pendingToolCallIds: ['call_ask'] });
    expect(actionable(second.events)).toEqual(['call_ask']);
    const third = await postRunAgentInput(url, { threadId: 't-approve', runId: 'r3', messages: [user, toolMessage('call_ask', 'confirmed')], tools: [CONFIRM] });
    expect(third.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'after: confirmed' });
  }, 30_000);

  it('never leaves a rejected call for the client to run: it is shown only as its refusal', async () => {
    const url = await serve(askOnce, [{ tool: 'confirm_plan', action: 'ask' }]);
    const interruptId = await interrupted(url, 't-reject');
    const resume = [{ interruptId, status: 'resolved', payload: { decision: 'reject' } }];
    const second = await postRunAgentInput(url, { threadId: 't-reject', runId: 'r2', messages: [user], tools: [CONFIRM], resume });
    expect(actionable(second.events)).toEqual([]);
    expect(eventsOfCall(second, 'call_ask')).toEqual([]);
    expect(refusalOf(second.events, 'call_ask')).toMatch(/reject/i);
    expect(second.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: expect.stringMatching(/^after: .*reject/i) });
  }, 30_000);

  it.each([
    ['denied by a rule', [{ tool: 'confirm_plan', action: 'deny' }], undefined],
    ['rejected at its approval', [{ tool: 'confirm_plan', action: 'ask' }], 'reject'],
  ] as const)('hands @ag-ui/client no call to run (onNewToolCall) when it is %s, nor a tool message answering no call: the refusal as a custom event', async (_how, permissionRules, decision) => {
    const url = await serve(askOnce, [...permissionRules]);
    type Line = { kind: string; toolCallId?: string; event?: WireEvent; messages?: Array<Record<string, unknown>> };
    const lines = await runClient<Line>(CLIENT, { url, token: TOKEN, threadId: `t-client-${decision ?? 'deny'}`, prompt: 'go', tools: [CONFIRM], ...(decision ? { decision } : {}) });
    expect(lines.filter((l) => l.kind === 'error')).toEqual([]);
    // what a client that runs each call as its TOOL_CALL_END arrives would have run
    expect(lines.filter((l) => l.kind === 'toolCall').map((l) => l.toolCallId)).toEqual([]);
    expect(lines.filter((l) => l.kind === 'event').at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', result: expect.stringMatching(/^after: .*(denied|reject)/i) });
    expect(refusalOf(lines.filter((l) => l.kind === 'event').map((l) => l.event!), 'call_ask')).toMatch(/denied|reject/i);
    expect(historyFaults(lines.at(-1)!.messages!)).toEqual([]);
  }, 60_000);

  it('runs an approved frontend call end to end through @ag-ui/client, whose checks accept every round', async () => {
    const url = await serve(askOnce, [{ tool: 'confirm_plan', action: 'ask' }]);
    type Line = { kind: string; round?: number; event?: WireEvent; outcome?: string; pendingToolCallIds?: string[]; message?: string; toolCallId?: string; messages?: Array<Record<string, unknown>> };
    const lines = await runClient<Line>(CLIENT, { url, token: TOKEN, threadId: 't-client', prompt: 'go', tools: [CONFIRM], decision: 'approve', toolResult: 'confirmed' });
    expect(lines.filter((l) => l.kind === 'error')).toEqual([]);
    expect(lines.filter((l) => l.kind === 'round').map((l) => [l.outcome, l.pendingToolCallIds])).toEqual([
      ['interrupt', []],
      ['success', ['call_ask']],
      ['success', []],
    ]);
    const startRounds = lines.filter((l) => l.event?.type === 'TOOL_CALL_START').map((l) => l.round);
    expect(startRounds).toEqual([2]);
    expect(lines.filter((l) => l.kind === 'toolCall').map((l) => [l.round, l.toolCallId])).toEqual([[2, 'call_ask']]);
    expect(lines.filter((l) => l.kind === 'event').at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', result: 'after: confirmed' });
    // the client's own tool message answers the call; a TOOL_CALL_RESULT of ours would answer it a second time
    expect(historyFaults(lines.at(-1)!.messages!)).toEqual([]);
    expect(lines.at(-1)!.messages!.filter((m) => m['role'] === 'tool').map((m) => [m['id'], m['content']])).toEqual([['tool-call_ask', 'confirmed']]);
  }, 60_000);
});
