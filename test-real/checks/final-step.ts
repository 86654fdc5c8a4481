/**
 * The last allowed step (issue 11, fix 1): it offers no tools and puts the final-step note
 * at the end of the leading system message, and every template must accept it (no HTTP
 * 400/500) and show the note to the model.
 */
import { expect, it } from 'vitest';
import type { ReasonEndEvent } from '../../src/events/agent-event.js';
import { FINAL_STEP_NOTE, withFinalStepNote } from '../../src/agent/reason-step.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { MemorySessionStore } from '../../src/session/index.js';
import { canForce, forcingModel } from '../support/forced-calls.js';
import { describeRun, llamaModel, realEngine, runEvents, theRunEnd } from '../support/real-engine.js';
import type { ProxiedExchange } from '../support/recording-proxy.js';
import type { Rig } from '../support/rig.js';
import { retryParserErrors } from '../support/parser-errors.js';
import { applyTemplate } from '../support/server-endpoints.js';
import type { TemplateProfile } from '../support/templates.js';

/**
 * An earlier turn that called a tool, as a session stores it. The call id has 9 letters and
 * digits: Mistral-Nemo's template rejects any other (OpenAI's `call_...` ids included).
 */
const TOOL_TURN: ChatMessage[] = [
  { role: 'user', content: 'Which files are there?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'a1B2c3D4e', type: 'function', function: { name: 'list', arguments: '{"path":"."}' } }] },
  { role: 'tool', tool_call_id: 'a1B2c3D4e', content: 'notes.txt' },
  { role: 'assistant', content: 'There is one file, notes.txt.' },
];

type Sent = { role: string; content: string | null };

/** Checks a final-step request: no tools, one system message, first, ending with the note. */
function expectFinalStepRequest(exchange: ProxiedExchange | undefined): void {
  expect(exchange?.status, `the template refused the final step: ${exchange?.raw}`).toBe(200);
  expect(exchange?.error, 'the server reported an error').toBeUndefined();
  expect(exchange?.body.tools).toBeUndefined();
  expect(exchange?.body.tool_choice).toBeUndefined();
  const messages = (exchange?.body.messages ?? []) as Sent[];
  // One system message, first; the note closes the last message (the prompt or a tool result).
  expect(messages.filter((m) => m.role === 'system')).toHaveLength(1);
  expect(messages[0]?.role).toBe('system');
  expect(messages.at(-1)?.content?.endsWith(`[${FINAL_STEP_NOTE}]`)).toBe(true);
}

/** Registers the checks. */
export function finalStepChecks(profile: TemplateProfile, rig: () => Rig): void {
  it('maxSteps 1 after a stored tool-calling turn: no tools, the note ends the last message, the template accepts it', () => retryParserErrors(async (watch) => {
    const { proxy, workspace } = rig();
    watch(proxy);
    const sessions = new MemorySessionStore();
    await sessions.append('earlier', TOOL_TURN);
    const model = llamaModel(proxy.baseURL, { maxTokens: 48 }, { logit_bias: profile.stopBias });
    const engine = realEngine(workspace, { model, sessions, maxSteps: 1 });
    const events = await runEvents(engine.stream('Now sum it up.', { sessionId: 'earlier' }));
    await proxy.settled();
    expect(proxy.chats).toHaveLength(1);
    expectFinalStepRequest(proxy.chats[0]);
    const end = theRunEnd(events);
    expect(end.abnormal, describeRun(events)).toBe(false);
    expect(end.steps).toBe(1);
  }));

  it('the note reaches the prompt the model reads when the final step follows tool results', async () => {
    const { server } = rig();
    // The shape of the last step of a run that reached maxSteps: the conversation ends with a tool result.
    const messages = withFinalStepNote([{ role: 'system', content: 'You are the main agent of a test run.' }, ...TOOL_TURN.slice(0, 3)]);
    const prompt = await applyTemplate(server.url, messages);
    expect(prompt, `the prompt the template rendered:\n${prompt}`).toContain(FINAL_STEP_NOTE);
  });

  // Without forced calls a run cannot reach maxSteps while asking for tools (delegation.ts says why).
  if (!canForce(profile)) return;
  it('a run that reaches maxSteps while asking for tools: its last step is accepted and answered', () => retryParserErrors(async (watch) => {
    const { proxy, workspace, server } = rig();
    watch(proxy);
    const model = await forcingModel(profile, server.url, proxy.baseURL, 'list');
    const engine = realEngine(workspace, { model, keep: ['list'], maxSteps: 2 });
    const events = await runEvents(engine.stream('List the files, then answer.'));
    await proxy.settled();
    const reasonEnds = events.filter((e): e is ReasonEndEvent => e.type === 'ReasonEnd');
    expect(reasonEnds[0]?.toolCalls.length, `the server did not make the forced call: ${proxy.chats[0]?.raw.slice(-1500)}`).toBeGreaterThan(0);
    expect(proxy.chats).toHaveLength(2);
    expectFinalStepRequest(proxy.chats[1]);
    const prompt = await applyTemplate(server.url, proxy.chats[1]?.body.messages as unknown[]);
    expect(prompt, `the prompt the template rendered:\n${prompt}`).toContain(FINAL_STEP_NOTE);
    const end = theRunEnd(events);
    expect(end.steps).toBe(2);
    expect(reasonEnds.map((e) => e.step)).toEqual([1, 2]);
    // The forcing bias still applies to the tool-less last step: Llama-3.1 then writes `{"{"...`
    // until max_tokens, an honest "length" end; never an HTTP error.
    if (end.abnormal) expect(end.error, describeRun(events)).toMatch(/finish_reason "length"/);
  }));
}
