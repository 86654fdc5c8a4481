/**
 * The `compaction` agent may name a model of its own (`model:` in its definition), whose
 * window can be smaller than the run's model's. The transcript its summary request carries is
 * sized by the window of the model that writes the summary: sized by the run's 16K window,
 * it was more than a 4K summariser takes, which refused it at every compaction (a plain note
 * stood in for the summary). Two fake llama servers, each saying its window in `/props`; or
 * the summariser's saying none, its window learned from its first refusal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { AgentEvent, CompactionEvent, RunEndEvent } from '../../../src/events/agent-event.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems } from '../../support/compaction-kit.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { contextRefusal } from '../../support/fake-openai/context-size.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { makeWorkspace, type TestWorkspace } from '../../support/tool-context.js';

/** `turns` turns of long chat (some 800 tokens each): pruning frees nothing, only a summary does. */
function chatHistory(turns: number): ChatMessage[] {
  return Array.from({ length: turns }, (_, i): ChatMessage[] => [
    { role: 'user', content: `Tell me about topic ${i + 1}` },
    { role: 'assistant', content: `topic ${i + 1}: ${'the quick brown fox jumps over the lazy dog. '.repeat(70)}` },
  ]).flat();
}

const servers: FakeOpenAIServer[] = [];
let workspace: TestWorkspace | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await workspace?.cleanup();
  workspace = undefined;
});

describe('a compaction agent with a model of a smaller window than the run model', () => {
  it("sends it a transcript that fits its window, and its summary replaces the oldest turns", async () => {
    const run = await FakeOpenAIServer.start({ contextSize: 16_384, handler: () => ({ text: 'the answer' }) });
    const small = await FakeOpenAIServer.start({ contextSize: 4_096, handler: () => ({ text: 'SMALL SUMMARY' }) });
    servers.push(run, small);
    workspace = await makeWorkspace();
    const sessions = new MemorySessionStore();
    sessions.append('s', chatHistory(18));
    const engine = new HarnessEngine({ model: openAIModelFor(run), models: { small: openAIModelFor(small, { model: 'small-model' }) }, workspace: workspace.dir, homeDir: workspace.dir, sessions });
    engine.agents.add(defineAgent({ name: 'compaction', description: 'Summarises.', systemPrompt: 'You summarise a conversation.', model: 'small', override: true }));

    const events: AgentEvent[] = await collect(engine.stream('And topic 19?', { sessionId: 's' }));
    expect(events.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: 'the answer' });
    const compaction = events.find((e): e is CompactionEvent => e.type === 'Compaction');
    expect(compaction).toMatchObject({ reason: 'context-limit', contextWindow: 16_384, prunedToolResults: 0 });
    expect(compaction!.summarisedMessages).toBeGreaterThan(0);
    expect(compaction!.summaryError).toBeUndefined();
    // The summariser was asked once, within its window; the run's model wrote no summary.
    const summaries = small.requests.filter((r) => r.body.messages !== undefined);
    expect(summaries.map((r) => r.status)).toEqual([200]);
    expect(run.requests.filter((r) => r.body.messages?.[0]?.content === 'You summarise a conversation.')).toEqual([]);
    const stored = sessions.load('s');
    expect(stored[0]).toMatchObject({ role: 'user', content: expect.stringContaining('SMALL SUMMARY') });
    expect(alternationProblems(stored)).toEqual([]);
  });

  it('learns its window from a refusal that names it, and the next summary fits', async () => {
    const run = await FakeOpenAIServer.start({ contextSize: 16_384, handler: () => ({ text: 'the answer' }) });
    // No `/props` (an OpenAI-like server): only its refusals say its 4K window.
    const small = await FakeOpenAIServer.start({
      handler: (r) => {
        const refusal = contextRefusal(r.body, 4_096) as { error: { message: string } } | undefined;
        return refusal ? { status: 400, errorMessage: refusal.error.message } : { text: 'SMALL SUMMARY' };
      },
    });
    servers.push(run, small);
    workspace = await makeWorkspace();
    const sessions = new MemorySessionStore();
    sessions.append('a', chatHistory(18));
    sessions.append('b', chatHistory(18));
    const engine = new HarnessEngine({ model: openAIModelFor(run), models: { small: openAIModelFor(small, { model: 'small-model' }) }, workspace: workspace.dir, homeDir: workspace.dir, sessions });
    engine.agents.add(defineAgent({ name: 'compaction', description: 'Summarises.', systemPrompt: 'You summarise a conversation.', model: 'small', override: true }));
    const first: AgentEvent[] = await collect(engine.stream('And topic 19?', { sessionId: 'a' }));
    expect(first.find((e) => e.type === 'Compaction')).toMatchObject({ summaryError: expect.stringMatching(/exceeds the available context size \(4096 tokens\)/) });
    const second: AgentEvent[] = await collect(engine.stream('And topic 19?', { sessionId: 'b' }));
    expect(second.at(-1) as RunEndEvent).toMatchObject({ abnormal: false, text: 'the answer' });
    expect(second.find((e): e is CompactionEvent => e.type === 'Compaction')?.summaryError).toBeUndefined();
    expect(small.requests.filter((r) => r.body.messages !== undefined).map((r) => r.status)).toEqual([400, 200]);
    expect(sessions.load('b')[0]).toMatchObject({ role: 'user', content: expect.stringContaining('SMALL SUMMARY') });
  });
});
