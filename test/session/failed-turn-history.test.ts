import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { INTERRUPTED_TOOL_RESULT } from '../../src/session/close-turn.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { Tool } from '../../src/tools/tool.js';
import { record } from '../support/collect-events.js';
import { FakeOpenAIServer, type FakeReply } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { nextTurnProblems, strictTemplateProblems } from '../support/strict-template.js';

// A turn that ends without an answer, by each kind of fault, through the real `openai`
// client and the fake server: the stored conversation stays one a strict chat template
// (Mistral-Nemo's "roles must alternate") accepts, and the next turn works.

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fakeServer(replies: FakeReply[] = []): Promise<FakeOpenAIServer> {
  const server = await FakeOpenAIServer.start({ replies });
  servers.push(server);
  return server;
}

/** A tool that runs until its call is cancelled. */
const waiting: Tool = {
  name: 'wait',
  description: 'Waits until cancelled.',
  parameters: { type: 'object' },
  execute: (_args, { signal }) => new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')))),
};
const clock: Tool = { name: 'clock', description: 'Time.', parameters: { type: 'object' }, execute: () => '12:00' };

const until = async (events: readonly AgentEvent[], type: AgentEvent['type']): Promise<void> => {
  for (let i = 0; i < 500 && !events.some((e) => e.type === type); i++) await new Promise((r) => setTimeout(r, 5));
  if (!events.some((e) => e.type === type)) throw new Error(`no ${type} event came`);
};

/** The next turn, on a server that answers: it ends normally and sends what a strict template accepts. */
async function expectNextTurnWorks(sessions: MemorySessionStore): Promise<void> {
  const server = await fakeServer([{ text: 'Here I am.' }]);
  const agent = new ReActAgent({ model: openAIModelFor(server), sessions, instructions: 'Be brief.' });
  const result = await agent.call('Are you there?', { sessionId: 's' });
  expect(result.abnormal, result.error).toBe(false);
  const sent = server.requests[0]!.body.messages as ChatMessage[];
  expect(strictTemplateProblems(sent)).toEqual([]);
  expect(sent.filter((m) => m.role === 'user').at(0)?.content).toBe('Question?'); // the failed turn's question is kept
}

/** The stored turn is closed by an assistant message saying it did not finish, and why. */
function expectClosed(sessions: MemorySessionStore, why: RegExp): void {
  const stored = sessions.load('s');
  expect(nextTurnProblems(stored)).toEqual([]);
  expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringMatching(why) });
  expect(stored.at(-1)?.content).toMatch(/^\(No answer: this turn did not finish: /);
}

describe('a turn that fails leaves a history a strict template accepts, and the next turn works', () => {
  it('HTTP 500: the question is kept, closed by an answer that names the error', async () => {
    const server = await fakeServer([{ status: 500, errorMessage: 'upstream exploded' }]);
    const sessions = new MemorySessionStore();
    const result = await new ReActAgent({ model: openAIModelFor(server), sessions }).call('Question?', { sessionId: 's' });
    expect(result.error).toMatch(/HTTP 500: upstream exploded/);
    expectClosed(sessions, /HTTP 500: upstream exploded/);
    await expectNextTurnWorks(sessions);
  });

  it('connection refused (the server is down)', async () => {
    const down = await fakeServer();
    const client = new OpenAI({ baseURL: down.baseURL, apiKey: 'test', maxRetries: 0, logLevel: 'off' });
    await down.close();
    const sessions = new MemorySessionStore();
    const model = new OpenAIChatModel({ model: 'm', client, retryBudgetMs: 0 });
    const result = await new ReActAgent({ model, sessions }).call('Question?', { sessionId: 's' });
    expect(result.error).toMatch(/connection failed.*ECONNREFUSED/);
    expectClosed(sessions, /ECONNREFUSED/);
    await expectNextTurnWorks(sessions);
  });

  it('cancelled while the model writes its text', async () => {
    const server = await fakeServer([{ text: 'a long answer that never ends', chunkSize: 2, stallAfterChunks: 3 }]);
    const sessions = new MemorySessionStore();
    const run = record(new ReActAgent({ model: openAIModelFor(server), sessions }).stream('Question?', { sessionId: 's' }));
    await until(run.events, 'ReasonDelta');
    run.subscription.unsubscribe();
    expectClosed(sessions, /the run was cancelled/);
    await expectNextTurnWorks(sessions);
  });

  it('cancelled while a tool runs: the call gets an interrupted result, then the turn is closed', async () => {
    const server = await fakeServer([{ toolCalls: [{ id: 'w1', name: 'wait', arguments: {} }, { id: 'w2', name: 'wait', arguments: {} }] }]);
    const sessions = new MemorySessionStore();
    const run = record(new ReActAgent({ model: openAIModelFor(server), sessions, tools: [waiting] }).stream('Question?', { sessionId: 's' }));
    await until(run.events, 'ToolCallStart');
    run.subscription.unsubscribe();
    expect(sessions.load('s').slice(2, 4)).toEqual([
      { role: 'tool', tool_call_id: 'w1', content: INTERRUPTED_TOOL_RESULT },
      { role: 'tool', tool_call_id: 'w2', content: INTERRUPTED_TOOL_RESULT },
    ]);
    expectClosed(sessions, /the run was cancelled/);
    await expectNextTurnWorks(sessions);
  });

  it('the model fails after tool results (the step after a tool call)', async () => {
    const server = await fakeServer([{ toolCalls: [{ id: 'c1', name: 'clock', arguments: {} }] }, { status: 500, errorMessage: 'template crashed' }]);
    const sessions = new MemorySessionStore();
    const result = await new ReActAgent({ model: openAIModelFor(server), sessions, tools: [clock] }).call('Question?', { sessionId: 's' });
    expect(result.abnormal).toBe(true);
    expect(sessions.load('s').map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expectClosed(sessions, /template crashed/);
    await expectNextTurnWorks(sessions);
  });

  it('a tool-call step cut mid-stream (the connection reset inside the call)', async () => {
    const server = await fakeServer([{ toolCalls: [{ id: 'c1', name: 'clock', arguments: { zone: 'a long zone name to split' } }], resetAfterChunks: 3 }]);
    const sessions = new MemorySessionStore();
    const result = await new ReActAgent({ model: openAIModelFor(server), sessions, tools: [clock] }).call('Question?', { sessionId: 's' });
    expect(result.abnormal).toBe(true);
    expect(sessions.load('s').map((m) => m.role)).toEqual(['user', 'assistant']);
    expectClosed(sessions, /model "fake-model"/);
    await expectNextTurnWorks(sessions);
  });

  it('the token budget spent: the last step answers without tools and that answer closes the turn', async () => {
    const usage = { prompt_tokens: 400, completion_tokens: 100, total_tokens: 500 };
    const server = await fakeServer([{ toolCalls: [{ id: 'c1', name: 'clock', arguments: {} }], usage }, { text: 'Out of budget.', usage }]);
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [clock], tokenBudget: 300 });
    const result = await agent.call('Question?', { sessionId: 's' });
    expect(result.error).toMatch(/token budget is spent/);
    expect(nextTurnProblems(sessions.load('s'))).toEqual([]);
    await expectNextTurnWorks(sessions);
  });
});
