/**
 * The `context-window-too-small` Warning (the system prompt and tool schemas alone fill the
 * window): once a run however many steps it takes, in the run it concerns (a child's comes
 * wrapped in its `TaskWrap`, none in its parent's own events), and the last step, which
 * offers no tools, is sized without them: it compacts as usual.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { defineAgent } from '../../src/subagent/define-agent.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect-events.js';
import { isSummaryRequest, pagedHistory, pageTool, SUMMARY } from '../support/compaction-kit.js';
import { FakeOpenAIServer, type FakeHandler } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { TEXT_PARAMETERS } from '../support/test-tools.js';
import { makeWorkspace } from '../support/tool-context.js';

const servers: FakeOpenAIServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all([...servers.splice(0).map((s) => s.close()), ...cleanups.splice(0).map((c) => c())]);
});

/** A server without a window of its own: the agent's `contextWindow` setting is what is too small. */
async function serverOf(handler: FakeHandler): Promise<FakeOpenAIServer> {
  const server = await FakeOpenAIServer.start({ handler });
  servers.push(server);
  return server;
}

const warnings = (events: readonly AgentEvent[]): AgentEvent[] => events.filter((e) => e.type === 'Warning' && e.code === 'context-window-too-small');

/** A tool whose schema alone (some 1,000 tokens) is more than an 800-token window. */
const wordy: Tool<{ text: string }> = { name: 'wordy', description: 'Does a thing. '.repeat(300), parameters: TEXT_PARAMETERS, execute: () => 'ok' };

describe('a run whose tool schemas alone fill the window', () => {
  it('is warned once over three tool steps, and its last step (no tools) compacts the session', async () => {
    const server = await serverOf((r) => {
      if (isSummaryRequest(r)) return { text: SUMMARY };
      return r.body.tools === undefined ? { text: 'final' } : { toolCalls: [{ name: 'wordy', arguments: { text: String(r.body.messages?.length) } }] };
    });
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory(3));
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [wordy], settings: { contextWindow: 800 }, maxSteps: 4 });
    const events: AgentEvent[] = await collect(agent.stream('go on', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'final', steps: 4 });
    expect(warnings(events)).toHaveLength(1);
    const compactions = events.filter((e) => e.type === 'Compaction');
    expect(compactions).toHaveLength(1);
    expect(events.indexOf(compactions[0]!)).toBeGreaterThan(events.findLastIndex((e) => e.type === 'ActionEnd'));
  });
});

describe('a child whose system prompt alone fills its window', () => {
  it('has its Warning wrapped in its TaskWrap, once, and its parent none of its own', async () => {
    let childSteps = 0;
    const server = await serverOf((r) => {
      const messages = r.body.messages ?? [];
      if ((messages[0]?.content ?? '').startsWith('You read pages.')) {
        childSteps++;
        return childSteps <= 3 ? { toolCalls: [{ name: 'fetch_page', arguments: { text: `topic ${childSteps}` } }] } : { text: 'read them all' };
      }
      if (messages.at(-1)?.role === 'tool') return { text: 'done' };
      return { toolCalls: [{ name: 'task', arguments: { agent_name: 'reader', prompt: 'Read pages', description: 'read pages' } }] };
    });
    const workspace = await makeWorkspace();
    cleanups.push(() => workspace.cleanup());
    const engine = new HarnessEngine({ model: openAIModelFor(server), workspace: workspace.dir, homeDir: workspace.home, tools: [pageTool], sessions: new MemorySessionStore() });
    engine.agents.add(defineAgent({ name: 'reader', description: 'Reads pages.', systemPrompt: `You read pages. ${'Be careful. '.repeat(200)}`, tools: ['fetch_page'], settings: { contextWindow: 512 } }));
    const events: AgentEvent[] = await collect(engine.stream('Read the pages', { sessionId: 'main' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    expect(warnings(events)).toEqual([]);
    const wrapped = events.flatMap((e) => (e.type === 'TaskWrap' ? [e.event] : []));
    expect(warnings(wrapped)).toMatchObject([{ agentName: 'reader' }]);
    expect(childSteps).toBe(4);
  });
});
