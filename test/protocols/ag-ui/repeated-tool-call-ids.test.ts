import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import type { AgentRoute } from '../../support/delegation-fixture.js';
import { echoTool } from '../../support/test-tools.js';
import { runClient, TOKEN } from '../protocol-kit.js';
import { outcomeOf, postRunAgentInput, user, type WireEvent } from './ag-ui-requests.js';

/**
 * A model that gives calls of different steps the same id (`call_0` each time, as small local
 * models do): `@ag-ui/client` took the second `TOOL_CALL_START` of an id for the first call,
 * appended the new arguments to the old ones, and its messages held one call with two results.
 * Each call the client is shown gets an id of its own in the thread (`call_0`, then
 * `call_0~2`), its result and a frontend tool's answer keep to it, and the answer the client
 * sends by that id reaches the right call.
 */
const CLIENT = fileURLToPath(new URL('./ag-ui-client-process.ts', import.meta.url));
const CONFIRM = { name: 'confirm_plan', description: 'Asks the user to confirm a plan', parameters: { type: 'object', properties: { plan: { type: 'string' } } } };

const agUi = agUiServerPerTest();

interface Line {
  readonly kind: string;
  readonly round?: number;
  readonly event?: WireEvent;
  readonly outcome?: string;
  readonly pendingToolCallIds?: string[];
  readonly toolCallId?: string;
  readonly messages?: Array<Record<string, unknown>>;
}

/** Calls `name` as `call_0` at steps 1 and 2 (arguments `{ plan: 'first' }`, then `'second'`), then answers with the results it read. */
const callZeroTwice =
  (name: string, key: string): AgentRoute =>
  (turn) =>
    turn.step <= 2 ? { toolCalls: [{ id: 'call_0', name, arguments: { [key]: turn.step === 1 ? 'first' : 'second' } }] } : { text: `read: ${turn.toolResults.join(' | ')}` };

/** The client's tool calls, as `[id, arguments]`, and its tool messages, as `[toolCallId, content]`. */
function callsAndAnswers(messages: ReadonlyArray<Record<string, unknown>>): { calls: unknown[][]; answers: unknown[][] } {
  const calls = messages.flatMap((m) => ((m['toolCalls'] as Array<{ id: string; function: { arguments: string } }> | undefined) ?? []).map((c) => [c.id, c.function.arguments]));
  const answers = messages.filter((m) => m['role'] === 'tool').map((m) => [m['toolCallId'], m['content']]);
  return { calls, answers };
}

describe('agUiHandler: a model that repeats a tool call id', () => {
  it('shows @ag-ui/client two calls of a server tool, each with its own arguments and result', async () => {
    const { url } = await agUi.serve({ main: callZeroTwice('shout', 'text') }, { engine: { tools: [echoTool('shout')] } });
    const lines = await runClient<Line>(CLIENT, { url, token: TOKEN, threadId: 't-server', prompt: 'go' });
    expect(lines.filter((l) => l.kind === 'error')).toEqual([]);
    const { calls, answers } = callsAndAnswers(lines.at(-1)!.messages!);
    expect(calls).toEqual([
      ['call_0', '{"text":"first"}'],
      ['call_0~2', '{"text":"second"}'],
    ]);
    expect(answers).toEqual([
      ['call_0', 'echo: first'],
      ['call_0~2', 'echo: second'],
    ]);
    expect(lines.filter((l) => l.kind === 'event').at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', result: 'read: echo: first | echo: second' });
  }, 60_000);

  it('leaves each frontend call to @ag-ui/client under its own id, and its answer reaches the model', async () => {
    const { url, fixture } = await agUi.serve({ main: callZeroTwice('confirm_plan', 'plan') });
    const lines = await runClient<Line>(CLIENT, { url, token: TOKEN, threadId: 't-frontend', prompt: 'go', tools: [CONFIRM], toolResult: 'ok' });
    expect(lines.filter((l) => l.kind === 'error')).toEqual([]);
    expect(lines.filter((l) => l.kind === 'round').map((l) => [l.outcome, l.pendingToolCallIds])).toEqual([
      ['success', ['call_0']],
      ['success', ['call_0~2']],
      ['success', []],
    ]);
    expect(lines.filter((l) => l.kind === 'toolCall').map((l) => [l.round, l.toolCallId])).toEqual([
      [1, 'call_0'],
      [2, 'call_0~2'],
    ]);
    const { calls, answers } = callsAndAnswers(lines.at(-1)!.messages!);
    expect(calls).toEqual([
      ['call_0', '{"plan":"first"}'],
      ['call_0~2', '{"plan":"second"}'],
    ]);
    expect(answers).toEqual([
      ['call_0', 'ok'],
      ['call_0~2', 'ok'],
    ]);
    // the model read each answer as its own call's, under the id it gave
    expect(fixture.server.requests.at(-1)!.body.messages?.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content])).toEqual([
      ['call_0', 'ok'],
      ['call_0', 'ok'],
    ]);
    expect(lines.filter((l) => l.kind === 'event').at(-1)?.event).toMatchObject({ type: 'RUN_FINISHED', result: 'read: ok | ok' });
  }, 60_000);

  it('takes an answer to the earlier call of a repeated id for no answer to the later one: the run still waits for it', async () => {
    const served = await agUi.serve({ main: callZeroTwice('confirm_plan', 'plan') });
    const base = { threadId: 't-stale', tools: [CONFIRM] };
    const first = await postRunAgentInput(served.url, { ...base, runId: 'r1', messages: [user('go')] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_0'] });
    const answeredFirst = [user('go'), { id: 'tool-1', role: 'tool', toolCallId: 'call_0', content: 'yes to first' }];
    const second = await postRunAgentInput(served.url, { ...base, runId: 'r2', messages: answeredFirst });
    expect(outcomeOf(second)).toMatchObject({ pendingToolCallIds: ['call_0~2'] });
    // the same request again: its answer names the first call, not the one that waits
    const stale = await postRunAgentInput(served.url, { ...base, runId: 'r3', messages: answeredFirst });
    expect(stale.status).toBe(400);
    expect(served.engine.runs.list().map((r) => r.state)).toEqual(['running']);
    const answeredSecond = [...answeredFirst, { id: 'tool-2', role: 'tool', toolCallId: 'call_0~2', content: 'yes to second' }];
    const third = await postRunAgentInput(served.url, { ...base, runId: 'r4', messages: answeredSecond });
    expect(third.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'read: yes to first | yes to second' });
  }, 30_000);

  it('gives a new turn\'s call a free id when the thread\'s messages hold its model id from an earlier turn', async () => {
    const served = await agUi.serve({ main: (turn) => (turn.step === 1 ? { toolCalls: [{ id: 'call_0', name: 'shout', arguments: { text: 'again' } }] } : { text: 'done' }) }, { engine: { tools: [echoTool('shout')] } });
    const earlier = [
      user('before'),
      { id: 'a-1', role: 'assistant', toolCalls: [{ id: 'call_0', type: 'function', function: { name: 'shout', arguments: '{"text":"before"}' } }] },
      { id: 'result_call_0', role: 'tool', toolCallId: 'call_0', content: 'echo: before' },
      { id: 'a-2', role: 'assistant', content: 'done' },
    ];
    const answer = await postRunAgentInput(served.url, { threadId: 't-history', runId: 'r2', messages: [...earlier, user('now')] });
    const ids = (type: string): unknown[] => answer.events.filter((e) => e.type === type).map((e) => e['toolCallId']);
    expect(ids('TOOL_CALL_START')).toEqual(['call_0~2']);
    expect(ids('TOOL_CALL_RESULT')).toEqual(['call_0~2']);
    expect(answer.events.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ messageId: 'result_call_0~2', content: 'echo: again' });
  }, 30_000);
});
