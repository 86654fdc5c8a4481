/**
 * A token budget covers every token a run uses (DESIGN: "the most tokens a run and everything
 * it delegates may use together"), the summary requests of its compactions included: they
 * are charged with the step they made room for. Before, a run near its window could spend a
 * window's worth on summaries each step, outside its budget.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import { scopeOfOptions } from '../../../src/agent/resolve-agent-options.js';
import { MemoryTokenBudget } from '../../../src/model/memory-token-budget.js';
import type { AgentEvent, BudgetEvent } from '../../../src/events/agent-event.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { FakeOpenAIServer, type FakeHandler } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { isSummaryRequest, pageTool, SUMMARY } from '../../support/compaction-kit.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * `turns` turns of long chat (some 800 tokens each), with nothing to prune: only a summary
 * makes room in the 700-token window the refusals name (a summary request fits in it).
 */
function chatHistory(turns: number): ChatMessage[] {
  return Array.from({ length: turns }, (_, i): ChatMessage[] => [
    { role: 'user', content: `Tell me about topic ${i + 1}` },
    { role: 'assistant', content: `topic ${i + 1}: ${'the quick brown fox jumps over the lazy dog. '.repeat(70)}` },
  ]).flat();
}

const SUMMARY_USAGE = { prompt_tokens: 4_000, completion_tokens: 100, total_tokens: 4_100 };
const ANSWER_USAGE = { prompt_tokens: 300, completion_tokens: 20, total_tokens: 320 };

/**
 * A server whose first request is refused as too long (so the run compacts), then answers:
 * at once, or (`busy`) after one call of `fetch_page`.
 */
async function agentOn(tokenBudget: number, busy = false): Promise<{ agent: ReActAgent; server: FakeOpenAIServer }> {
  let steps = 0;
  const handler: FakeHandler = (r) => {
    if (isSummaryRequest(r)) return { text: SUMMARY, usage: SUMMARY_USAGE };
    steps++;
    if (steps === 1) return { status: 400, errorMessage: "This model's maximum context length is 700 tokens" };
    if (busy && steps === 2) return { toolCalls: [{ name: 'fetch_page', arguments: { text: 'topic 9' } }], usage: ANSWER_USAGE };
    return { text: 'the answer', usage: ANSWER_USAGE };
  };
  const server = await FakeOpenAIServer.start({ handler });
  servers.push(server);
  const sessions = new MemorySessionStore();
  sessions.append('s', chatHistory(4));
  return { agent: new ReActAgent({ model: openAIModelFor(server), sessions, tokenBudget, tools: [pageTool] }), server };
}

const budgets = (events: readonly AgentEvent[]): BudgetEvent[] => events.filter((e): e is BudgetEvent => e.type === 'Budget');

describe('a step that compacted', () => {
  it('is charged its summary request with its own answer', async () => {
    const { agent, server } = await agentOn(100_000);
    const events = await collect(agent.stream('next question', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(1);
    expect(events.some((e) => e.type === 'Compaction')).toBe(true);
    expect(budgets(events)).toMatchObject([{ step: 1, used: SUMMARY_USAGE.total_tokens + ANSWER_USAGE.total_tokens }]);
    // The metrics, which counted the summary before, agree with the budget.
    expect(events.at(-1)).toMatchObject({ metrics: { totalTokens: SUMMARY_USAGE.total_tokens + ANSWER_USAGE.total_tokens } });
  });

  it('spends a budget the summary exhausts: step 1 is not sent again after it, and the run ends on the budget', async () => {
    const { agent, server } = await agentOn(4_000, true);
    const events = await collect(agent.stream('next question', { sessionId: 's' }));
    // The summary, charged only when the step ends, counts as spent before the resend: it is not sent.
    expect(budgets(events)).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: 'RunEnd',
      abnormal: true,
      error: expect.stringMatching(/^the token budget is spent: 4100 of 4000 tokens .*compaction summaries.*so no further model request was made$/),
    });
    // Step 1 (refused as too long), its summary, and nothing after them.
    expect(server.requests.map((r) => (isSummaryRequest(r) ? 'summary' : 'step'))).toEqual(['step', 'summary']);
  });
});

describe('a step that compacted and then failed', () => {
  it('still charges its summary to the budget (a failed child would otherwise spend it outside its parent\'s)', async () => {
    // Refused as too long before and after the summary: the step fails.
    const server = await FakeOpenAIServer.start({
      handler: (r) => (isSummaryRequest(r) ? { text: SUMMARY, usage: SUMMARY_USAGE } : { status: 400, errorMessage: "This model's maximum context length is 700 tokens" }),
    });
    servers.push(server);
    const sessions = new MemorySessionStore();
    sessions.append('s', chatHistory(4));
    let budget: MemoryTokenBudget | undefined;
    const scope = { ...scopeOfOptions({ model: openAIModelFor(server), sessions, tokenBudget: 100_000 }), newBudget: (limit: number) => (budget = new MemoryTokenBudget(limit)) };
    const agent = ReActAgent.ofScope('main', () => scope);
    const events = await collect(agent.stream('next question', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true });
    expect(server.requests.filter(isSummaryRequest).length).toBeGreaterThan(0);
    const summaries = server.requests.filter(isSummaryRequest).length;
    expect(budget?.used).toBe(summaries * SUMMARY_USAGE.total_tokens);
  });
});

describe('a summary request cut mid-stream', () => {
  it('is charged its prompt and what it streamed with the step, as a step request cut mid-stream is', async () => {
    // The summary's reply is reset after 32 characters: the compaction keeps a note, the step answers.
    const CUT_SUMMARY = { text: 'y'.repeat(64), chunkSize: 16, resetAfterChunks: 2 };
    let steps = 0;
    const server = await FakeOpenAIServer.start({
      handler: (r) => {
        if (isSummaryRequest(r)) return CUT_SUMMARY;
        steps++;
        return steps === 1 ? { status: 400, errorMessage: "This model's maximum context length is 700 tokens" } : { text: 'the answer', usage: ANSWER_USAGE };
      },
    });
    servers.push(server);
    const sessions = new MemorySessionStore();
    sessions.append('s', chatHistory(4));
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tokenBudget: 100_000, tools: [pageTool] });
    const events = await collect(agent.stream('next question', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(1);
    const [charged] = budgets(events);
    // The summary's prompt (thousands of characters of transcript) and its 32 characters, estimated, besides the answer.
    expect(charged!.used).toBeGreaterThan(ANSWER_USAGE.total_tokens + 100);
  });
});
