import { afterEach, describe, expect, it } from 'vitest';
import { FINAL_STEP_NOTE } from '../../src/agent/reason-step.js';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { RunEndEvent } from '../../src/events/agent-event.js';
import type { ChatRequest } from '../../src/model/chat-model.js';
import { ScriptedModel, type ScriptedReply } from '../../src/model/scripted-model.js';
import { outcomeOf, typesOf } from '../support/collect.js';
import { conversationProblems } from '../support/conversation.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { echoTool } from '../support/test-tools.js';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Only the first message is a system message (templates refuse one after the conversation). */
const systemOnlyFirst = (messages: readonly { role: string }[]) => messages.slice(1).every((m) => m.role !== 'system');

/** Calls a tool whenever it may, answers in text when it may not. */
function toolHappy(request: ChatRequest, { index }: { index: number }): ScriptedReply {
  if (request.tools?.length) return { toolCalls: [{ name: 'echo', args: { text: `round ${index + 1}` } }] };
  return { text: `Final answer after ${index} tool rounds.` };
}

describe('maxSteps', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('sends the last allowed step without tools and with the final note, so the run still ends with an answer', async () => {
    server = await FakeOpenAIServer.start({
      handler: (request) =>
        request.body.tools?.length ? { toolCalls: [{ name: 'echo', arguments: { text: `r${request.index}` } }] } : { text: 'Here is my answer.' },
    });
    const agent = new ReActAgent({ model: openAIModelFor(server), tools: [echoTool()], maxSteps: 3 });
    const { values, completed } = await outcomeOf(agent.stream('Keep going', { sessionId: 's' }));
    expect(completed).toBe(true);
    expect(values.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, steps: 3, text: 'Here is my answer.' });
    const bodies = server.requests.map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(bodies.map((b) => b.tools?.map((t) => t.function?.name))).toEqual([['echo'], ['echo'], undefined]);
    // The note closes the last message (here a tool result): every template shows that one.
    expect(bodies[2]?.messages?.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(new RegExp(`\\n\\n\\[${escape(FINAL_STEP_NOTE)}\\]$`)) });
    expect(systemOnlyFirst(bodies[2]!.messages!)).toBe(true);
    expect(bodies.slice(0, 2).some((b) => JSON.stringify(b.messages).includes(FINAL_STEP_NOTE))).toBe(false);
    expect(conversationProblems(bodies[2]!.messages!)).toEqual([]);
  });

  it('leaves the agent\'s own system prompt as it is, first and alone', async () => {
    const model = new ScriptedModel(toolHappy);
    await new ReActAgent({ model, tools: [echoTool()], maxSteps: 2, instructions: 'You are terse.' }).call('go');
    expect(model.requests[1]!.messages[0]).toEqual({ role: 'system', content: 'You are terse.' });
    expect(systemOnlyFirst(model.requests[1]!.messages)).toBe(true);
    expect(String(model.requests[1]!.messages.at(-1)?.content).endsWith(`[${FINAL_STEP_NOTE}]`)).toBe(true);
  });

  it('never stores the final note: the next run of the session does not see it', async () => {
    const model = new ScriptedModel(toolHappy);
    const agent = new ReActAgent({ model, tools: [echoTool()], maxSteps: 2 });
    await agent.call('first', { sessionId: 's' });
    await agent.call('second', { sessionId: 's' });
    const next = model.requests[2]!;
    expect(next.tools?.length).toBe(1);
    expect(next.messages.some((m) => m.content === FINAL_STEP_NOTE)).toBe(false);
    expect(next.messages.at(-2)).toEqual({ role: 'assistant', content: 'Final answer after 1 tool rounds.' });
  });

  it('with maxSteps: 1 makes its only request without tools', async () => {
    const model = new ScriptedModel(toolHappy);
    const { values } = await outcomeOf(new ReActAgent({ model, tools: [echoTool()], maxSteps: 1 }).stream('Just answer'));
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.tools).toBeUndefined();
    expect(model.requests[0]?.messages).toEqual([{ role: 'user', content: `Just answer\n\n[${FINAL_STEP_NOTE}]` }]);
    expect(values.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, steps: 1, text: 'Final answer after 0 tool rounds.' });
  });

  it('ends abnormally, with a clear error and without running them, when the model still asks for tools on the last step', async () => {
    const echo = echoTool();
    const model = new ScriptedModel(() => ({ text: 'More!', toolCalls: [{ name: 'echo', args: { text: 'again' } }] }));
    const agent = new ReActAgent({ model, tools: [echo], maxSteps: 2 });
    const { values, completed } = await outcomeOf(agent.stream('Loop', { sessionId: 'loop' }));
    expect(completed).toBe(true);
    const end = values.at(-1) as RunEndEvent;
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: true, steps: 2, text: 'More!' });
    expect(end.error).toBe('the agent reached its step limit (maxSteps 2) and still asked for tools (echo) instead of answering');
    expect(echo.calls).toHaveLength(1);
    expect(typesOf(values).filter((t) => t === 'ActionStart')).toHaveLength(1);
    // The unanswerable calls are not stored, so the session stays sendable.
    await agent.call('Next', { sessionId: 'loop' });
    expect(conversationProblems(model.requests[2]!.messages)).toEqual([]);
  });

  it('call() reports the same abnormal end as a result', async () => {
    const model = new ScriptedModel(() => ({ toolCalls: [{ name: 'echo', args: { text: 'x' } }] }));
    const result = await new ReActAgent({ model, tools: [echoTool()], maxSteps: 1 }).call('Loop');
    expect(result).toMatchObject({ abnormal: true, steps: 1, error: 'the agent reached its step limit (maxSteps 1) and still asked for tools (echo) instead of answering' });
  });
});
