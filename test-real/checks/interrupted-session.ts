/**
 * A conversation goes on after a run was cancelled while its tools ran: the session then
 * ends with the assistant's tool call and no result, rxharness answers the call with an
 * "interrupted" tool message when it loads the session, and the next turn must be one the
 * template accepts.
 */
import { expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/session/index.js';
import { INTERRUPTED_TOOL_RESULT, UNANSWERED_TURN } from '../../src/session/repair-history.js';
import { retryParserErrors } from '../support/parser-errors.js';
import { llamaModel, realEngine, runEvents, theRunEnd } from '../support/real-engine.js';
import type { Rig } from '../support/rig.js';
import type { TemplateProfile } from '../support/templates.js';

/** Registers the check. */
export function interruptedSessionChecks(profile: TemplateProfile, rig: () => Rig): void {
  it('a session left by a run cancelled during its tool call goes on: the template accepts the next turn', () => retryParserErrors(async (watch) => {
    const { proxy, workspace } = rig();
    watch(proxy);
    const sessions = new MemorySessionStore();
    // What a run cancelled while `list` ran has stored: the prompt and the call, no result.
    // (The id has 9 letters and digits, which Mistral-Nemo insists on.)
    await sessions.append('cancelled', [
      { role: 'user', content: 'Which files are there?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'k7Qm2Xa9Z', type: 'function', function: { name: 'list', arguments: '{}' } }] },
    ]);
    const model = llamaModel(proxy.baseURL, { maxTokens: 48 }, { logit_bias: profile.stopBias });
    const engine = realEngine(workspace, { model, sessions });
    const events = await runEvents(engine.stream('Never mind. Say hello.', { sessionId: 'cancelled' }));
    await proxy.settled();
    const [exchange] = proxy.chats;
    const sent = (exchange?.body.messages ?? []) as Array<{ role: string; content: string | null }>;
    // The interrupted call is answered, and an assistant turn closes it before the new prompt.
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent[3]?.content).toBe(INTERRUPTED_TOOL_RESULT);
    expect(sent[4]?.content).toBe(UNANSWERED_TURN);
    expect(exchange?.status, `the template refused the conversation: ${exchange?.raw}`).toBe(200);
    const end = theRunEnd(events);
    expect(end.abnormal, end.error).toBe(false);
  }));
}
