/**
 * A summariser with a small window (1,024 tokens) is asked for a summary that fits it: the
 * request's `max_tokens` counts in the window beside its prompt (vLLM and OpenAI refuse a
 * request whose prompt and `max_tokens` exceed it), so a 2,000-token summary asked of it was
 * refused however short its transcript, and a note stood in for the summary at every
 * compaction. A summariser whose window cannot hold even its own instructions, a little
 * conversation and a short summary is not asked at all: the compaction says why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { AgentEvent, CompactionEvent, RunEndEvent } from '../../../src/events/agent-event.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems } from '../../support/compaction-kit.js';
import { estimateUsage, FakeOpenAIServer, type RecordedRequest } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { makeWorkspace, type TestWorkspace } from '../../support/tool-context.js';

const SMALL_WINDOW = 1_024;

/** `turns` turns of long chat (some 800 tokens each): pruning frees nothing, only a summary does. */
function chatHistory(turns: number): ChatMessage[] {
  return Array.from({ length: turns }, (_, i): ChatMessage[] => [
    { role: 'user', content: `Tell me about topic ${i + 1}` },
    { role: 'assistant', content: `topic ${i + 1}: ${'the quick brown fox jumps over the lazy dog. '.repeat(70)}` },
  ]).flat();
}

/** The prompt's tokens and the answer's room together, as vLLM counts a request against its window. */
function requested(r: RecordedRequest): number {
  return estimateUsage(r.body, {}).prompt_tokens + Number(r.body.max_tokens ?? 0);
}

const servers: FakeOpenAIServer[] = [];
let workspace: TestWorkspace | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await workspace?.cleanup();
  workspace = undefined;
});

/** A run on a 16K model whose `compaction` agent (prompt `systemPrompt`) writes on a 1K one; the small server's chat requests. */
async function compactWithSmallSummariser(systemPrompt: string): Promise<{ events: AgentEvent[]; small: FakeOpenAIServer; sessions: MemorySessionStore }> {
  const run = await FakeOpenAIServer.start({ contextSize: 16_384, handler: () => ({ text: 'the answer' }) });
  // vLLM's refusal: the prompt and max_tokens together may not exceed the window.
  const small = await FakeOpenAIServer.start({
    contextSize: SMALL_WINDOW,
    handler: (r) => {
      const total = requested(r);
      if (total <= SMALL_WINDOW) return { text: 'SMALL SUMMARY' };
      return { status: 400, errorMessage: `This model's maximum context length is ${SMALL_WINDOW} tokens. However, you requested ${total} tokens. Please reduce the length of the messages or completion.` };
    },
  });
  servers.push(run, small);
  workspace = await makeWorkspace();
  const sessions = new MemorySessionStore();
  sessions.append('s', chatHistory(18));
  const engine = new HarnessEngine({ model: openAIModelFor(run), models: { small: openAIModelFor(small, { model: 'small-model' }) }, workspace: workspace.dir, homeDir: workspace.dir, sessions });
  engine.agents.add(defineAgent({ name: 'compaction', description: 'Summarises.', systemPrompt, model: 'small', override: true }));
  const events: AgentEvent[] = await collect(engine.stream('And topic 19?', { sessionId: 's' }));
  return { events, small, sessions };
}

describe('a summariser of a 1,024-token window', () => {
  it('is asked for a summary whose prompt and max_tokens fit its window, and writes it', async () => {
    const { events, small, sessions } = await compactWithSmallSummariser('You summarise a conversation.');
    expect(events.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: 'the answer' });
    const compaction = events.find((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compaction!.summarisedMessages).toBeGreaterThan(0);
    expect(compaction!.summaryError).toBeUndefined();
    const asked = small.requests.filter((r) => r.body.messages !== undefined);
    expect(asked.map((r) => r.status)).toEqual([200]);
    expect(requested(asked[0]!)).toBeLessThanOrEqual(SMALL_WINDOW);
    expect(Number(asked[0]!.body.max_tokens)).toBeGreaterThanOrEqual(64);
    const stored = sessions.load('s');
    expect(stored[0]).toMatchObject({ role: 'user', content: expect.stringContaining('SMALL SUMMARY') });
    expect(alternationProblems(stored)).toEqual([]);
  });

  it('is not sent a request when its instructions leave no room for a summary, and the compaction says why', async () => {
    // Some 950 tokens of instructions: no transcript and summary fit beside them in 1,024.
    const { events, small } = await compactWithSmallSummariser(`You summarise a conversation. ${'Keep every name, path and number. '.repeat(110)}`);
    expect(events.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: 'the answer' });
    const compaction = events.find((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compaction!.summaryError).toMatch(/model "small-model" cannot write a summary: its context window \(about \d+ tokens\) holds its instructions .* no summary request was sent/);
    expect(small.requests.filter((r) => r.body.messages !== undefined)).toEqual([]);
  });
});
