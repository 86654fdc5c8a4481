/**
 * A compaction on demand sizes the session by the same measure of the request as the one a
 * run makes before a step: the window in estimated tokens, less what every request sends
 * besides the session (the system prompt and the tool schemas, `estimateRequestTokens`) and
 * the room for the answer. Counted without the tools, a manual compaction asked for a longer
 * summary and left a session that the next request, tools and all, did not fit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { makeWorkspace } from '../../support/tool-context.js';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { isSummaryRequest, pageTool, SUMMARY } from '../../support/compaction-kit.js';

const CONTEXT = 8_192;

/** Ten turns with long answers (about 5,000 tokens), nothing to prune: only a summary makes room. */
function talkativeHistory(): ChatMessage[] {
  return Array.from({ length: 10 }, (_, i): ChatMessage[] => [
    { role: 'user', content: `Tell me about topic ${i + 1}` },
    { role: 'assistant', content: `Topic ${i + 1}: ${'a long and careful answer. '.repeat(75)}` },
  ]).flat();
}

describe('compaction on demand counts the request as a run does', () => {
  let server: FakeOpenAIServer | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await server?.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('engine.compact asks for the summary a run\'s compaction would, and counts the system prompt and tool schemas in its tokens', async () => {
    server = await FakeOpenAIServer.start({ contextSize: CONTEXT, handler: (r) => ({ text: isSummaryRequest(r) ? SUMMARY : 'ok' }) });
    const workspace = await makeWorkspace();
    cleanups.push(() => workspace.cleanup());
    const sessions = new MemorySessionStore();
    const history = talkativeHistory(); // with the system prompt and the tools, over the window
    sessions.append('manual', history);
    sessions.append('auto', history);
    const engine = new HarnessEngine({ model: openAIModelFor(server), workspace: workspace.dir, homeDir: workspace.home, tools: [pageTool], sessions });

    const manual = await engine.compact('manual');
    const manualSummary = server.requests.filter(isSummaryRequest).at(-1)!;
    const events: AgentEvent[] = await collect(engine.stream('One more question', { sessionId: 'auto' }));
    const auto = events.find((e): e is CompactionEvent => e.type === 'Compaction')!;
    const autoSummary = server.requests.filter(isSummaryRequest).at(-1)!;

    expect(auto).toMatchObject({ reason: 'context-limit', contextWindow: CONTEXT });
    expect(manual).toMatchObject({ reason: 'manual', contextWindow: CONTEXT, archived: true });
    // the same room for the session, so the same summary length asked for
    expect(manualSummary.body.max_tokens).toBe(autoSummary.body.max_tokens);
    // the same fixed part (system prompt, tool schemas) counted in the tokens before
    const autoFixed = auto.tokensBefore - estimateTokens([...history, { role: 'user', content: 'One more question' }]);
    expect(autoFixed).toBeGreaterThan(500);
    expect(manual.tokensBefore - estimateTokens(history)).toBe(autoFixed);
  });
});
