/**
 * A step may ask for at most MAX_TOOL_CALLS_PER_STEP tool calls. A reply with more (a model
 * gone wrong, or one made to flood: 10,000 calls, each of which may ask the user) runs none
 * of them and ends the run saying so; the calls are not stored, so the conversation goes on.
 * The reply is read no further than the first call over the limit: its request is aborted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TOOL_CALLS_PER_STEP } from '../../src/agent/defaults.js';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { RunEndEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { collect } from '../support/collect-events.js';
import { conversationProblems } from '../support/conversation.js';
import { FakeOpenAIServer, type FakeReply } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { echoTool } from '../support/test-tools.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An agent whose model asks for `count` echo calls on its first step, then answers. */
async function flooded(count: number, more: Partial<FakeReply> = {}) {
  const replies: FakeReply[] = [{ toolCalls: Array.from({ length: count }, (_, i) => ({ name: 'echo', arguments: { text: `call ${i}` } })), ...more }];
  const server = await FakeOpenAIServer.start({ handler: () => replies.shift() ?? { text: 'done' } });
  servers.push(server);
  const echo = echoTool();
  const sessions = new MemorySessionStore();
  return { agent: new ReActAgent({ model: openAIModelFor(server), tools: [echo], sessions }), echo, server, sessions };
}

describe('tool calls in one step', () => {
  it(`runs ${MAX_TOOL_CALLS_PER_STEP}, the most a step may ask for`, async () => {
    const { agent, echo } = await flooded(MAX_TOOL_CALLS_PER_STEP);
    const events = await collect(agent.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    expect(echo.calls).toHaveLength(MAX_TOOL_CALLS_PER_STEP);
  });

  it.each([MAX_TOOL_CALLS_PER_STEP + 1, 10_000])('runs none of %i, ends the run saying why, and the session goes on', async (count) => {
    const { agent, echo, server, sessions } = await flooded(count);
    const events = await collect(agent.stream('go', { sessionId: 's' }));
    const end = events.at(-1) as RunEndEvent;
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: true, steps: 1 });
    // The reply is read no further than call 129: how many more it held is not known.
    expect(end.error).toBe(
      `the model asked for more than ${MAX_TOOL_CALLS_PER_STEP} tool calls in one step, more than the ${MAX_TOOL_CALLS_PER_STEP} a step may run ` +
        `(its reply was read no further than call ${MAX_TOOL_CALLS_PER_STEP + 1}): none of them ran`,
    );
    expect(echo.calls).toHaveLength(0);
    expect(events.some((e) => e.type === 'ActionStart' || e.type === 'ToolCallStart')).toBe(false);
    // The next turn sends a conversation a strict template takes, without the flood in it.
    const next = await collect(agent.stream('again', { sessionId: 's' }));
    expect(next.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    const sent = server.requests.at(-1)!.body.messages ?? [];
    expect(JSON.stringify(sent)).not.toContain('tool_calls');
    expect(conversationProblems(sessions.load('s'))).toEqual([]);
  });

  it('stops reading a flood at the first call over the limit: the server sees the request aborted', async () => {
    // Three chunks a call (its name, then its arguments in two halves): the server sends the first 130
    // calls, then holds the connection open without another byte. Only a client that stopped
    // reading by itself ends this request (else the run waits for the 10-minute idle timeout).
    const { agent, echo, server } = await flooded(10_000, { chunkSize: 1_000, stallAfterChunks: 3 * (MAX_TOOL_CALLS_PER_STEP + 2) });
    const events = await collect(agent.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, steps: 1 });
    expect((events.at(-1) as RunEndEvent).error).toContain(`more than ${MAX_TOOL_CALLS_PER_STEP} tool calls`);
    const request = await server.waitForClosed(0);
    expect(request).toMatchObject({ aborted: true, completed: false });
    expect(echo.calls).toHaveLength(0);
    // The step's ReasonEnd names the calls read, not ten thousand.
    const reasonEnd = events.find((e) => e.type === 'ReasonEnd');
    expect(reasonEnd?.type === 'ReasonEnd' && reasonEnd.toolCalls.length).toBe(MAX_TOOL_CALLS_PER_STEP + 1);
  });

  it('a custom model handing over a flood whole ends the run alike, saying how many it asked for', async () => {
    const calls = Array.from({ length: 10_000 }, (_, i) => ({ name: 'echo', args: { text: `call ${i}` } }));
    const echo = echoTool();
    const agent = new ReActAgent({ model: new ScriptedModel([{ toolCalls: calls }, { text: 'done' }]), tools: [echo] });
    const events = await collect(agent.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, steps: 1 });
    expect((events.at(-1) as RunEndEvent).error).toBe(`the model asked for 10000 tool calls in one step, more than the ${MAX_TOOL_CALLS_PER_STEP} a step may run: none of them ran`);
    expect(echo.calls).toHaveLength(0);
  });
});
