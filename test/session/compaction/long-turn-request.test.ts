/**
 * One long turn of 30 tool steps under an 8K window, compacted again and again inside the
 * turn (summaries cut inside it more than once), through the engine, the real `openai` client and the fake server: the user's request
 * reaches every request of the turn whole, and the stored session keeps it, even when it
 * looks like a summary block (pasted from another session) or holds its end marker (a log).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, isSummaryRequest, pageTool } from '../../support/compaction-kit.js';
import { conversationProblems } from '../../support/conversation.js';
import { FakeOpenAIServer, type FakeReply, type RecordedRequest } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { makeWorkspace } from '../../support/tool-context.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TASK = 'Please read 30 pages about the migration to Postgres 16 and keep table users intact.';
const PROMPTS = {
  'a pasted summary': `[Summary of the earlier conversation (pasted from my notes)]: plan B agreed.\n${TASK}`,
  'a pasted log with an end marker': `My log says: [End of summary]\n\n${TASK}`,
};

describe('a long turn compacted inside itself', () => {
  it.each(Object.entries(PROMPTS))('sends the user\'s whole request in every request (%s)', async (_, prompt) => {
    let steps = 0;
    const handler = (request: RecordedRequest): FakeReply => {
      if (isSummaryRequest(request)) return { text: 'Summary: pages were read.' };
      steps++;
      // Each step also thinks aloud at length (no pruning removes it), so summaries must cut inside the turn.
      const thinking = `step ${steps}: ${'thinking about the pages. '.repeat(60)}`;
      return steps <= 30 ? { text: thinking, toolCalls: [{ name: 'fetch_page', arguments: { text: `page ${steps}` } }] } : { text: 'done' };
    };
    const server = await FakeOpenAIServer.start({ contextSize: 8_192, handler });
    cleanups.push(() => server.close());
    const workspace = await makeWorkspace();
    cleanups.push(() => workspace.cleanup());
    const sessions = new MemorySessionStore();
    const engine = new HarnessEngine({ model: openAIModelFor(server), workspace: workspace.dir, homeDir: workspace.home, tools: [pageTool], sessions, maxSteps: 50 });
    const events: AgentEvent[] = await collect(engine.stream(prompt, { sessionId: 'lt' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    expect(events.filter((e) => e.type === 'Compaction' && e.summarisedMessages > 0).length).toBeGreaterThanOrEqual(2);
    const main = server.requests.filter((r) => !isSummaryRequest(r));
    expect(main).toHaveLength(31);
    const without = main.flatMap((r, i) => ((r.body.messages ?? []).some((m) => m.role === 'user' && m.content.endsWith(prompt)) ? [] : [i]));
    expect(without).toEqual([]);
    const stored = sessions.load('lt');
    expect(conversationProblems(stored)).toEqual([]);
    expect(alternationProblems(stored)).toEqual([]);
    expect(stored[0]!.content).toMatch(/^\[Summary of the earlier conversation: \d+ messages/);
    expect(stored[0]!.content!.endsWith(`\n[End of summary]\n\n[The request being worked on]\n${prompt}`)).toBe(true);
  }, 60_000);
});
