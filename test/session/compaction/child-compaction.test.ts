import { afterEach, describe, expect, it } from 'vitest';
import { plainLine } from '../../../src/adapters/terminal-tree/plain-line.js';
import { createTreeState } from '../../../src/adapters/task-tree/tree-state.js';
import { reduceTree } from '../../../src/adapters/task-tree/reduce-tree.js';
import { renderTree } from '../../../src/adapters/terminal-tree/render-tree.js';
import { toUiItem } from '../../../src/adapters/ui-dto.js';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { AgentEvent, CompactionEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { collect } from '../../support/collect-events.js';
import { FakeOpenAIServer, type FakeReply, type RecordedRequest } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { makeWorkspace } from '../../support/tool-context.js';
import { conversationProblems } from '../../support/conversation.js';
import { alternationProblems, isSummaryRequest, pageText, pageTool, SUMMARY } from '../../support/compaction-kit.js';

const PAGES = 12;

/** The main agent delegates once; the `reader` child fetches 12 pages of about 3 KB in one task, then answers. */
function delegation(): (request: RecordedRequest) => FakeReply {
  let childSteps = 0;
  return (request) => {
    if (isSummaryRequest(request)) return { text: SUMMARY };
    const messages = request.body.messages ?? [];
    if ((messages[0]?.content ?? '').startsWith('You read pages.')) {
      childSteps++;
      return childSteps <= PAGES ? { toolCalls: [{ name: 'fetch_page', arguments: { text: `topic ${childSteps}` } }] } : { text: 'read them all' };
    }
    if (messages.at(-1)?.role === 'tool') return { text: 'done' };
    return { toolCalls: [{ name: 'task', arguments: { agent_name: 'reader', prompt: 'Read twelve pages', description: 'read pages' } }] };
  };
}

describe('a child task nearing its window', () => {
  let server: FakeOpenAIServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await server?.close();
    await cleanup?.();
  });

  it('compacts its own session; its Compaction events arrive wrapped, and the UI item, the tree and the plain line show them', async () => {
    server = await FakeOpenAIServer.start({ contextSize: 8_192, handler: delegation() });
    const workspace = await makeWorkspace();
    cleanup = () => workspace.cleanup();
    const sessions = new MemorySessionStore();
    const engine = new HarnessEngine({ model: openAIModelFor(server), workspace: workspace.dir, homeDir: workspace.home, tools: [pageTool], sessions });
    engine.agents.add(defineAgent({ name: 'reader', description: 'Reads pages.', systemPrompt: 'You read pages.', tools: ['fetch_page'] }));
    const events: AgentEvent[] = await collect(engine.stream('Read the pages', { sessionId: 'main' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
    expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
    // The child's compactions, wrapped like any of its events; the main run made none.
    expect(events.filter((e) => e.type === 'Compaction')).toEqual([]);
    const wrapped = events.filter((e): e is TaskWrapEvent & { event: CompactionEvent } => e.type === 'TaskWrap' && e.event.type === 'Compaction');
    expect(wrapped.length).toBeGreaterThan(0);
    const first = wrapped[0]!;
    expect(first.event).toMatchObject({ agentName: 'reader', sessionId: first.taskId, reason: 'context-limit', contextWindow: 8_192, archived: true });
    // Its session is compacted in the store, its transcript whole in the archive.
    const archive = sessions.loadArchive(first.taskId);
    expect(archive.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(Array.from({ length: PAGES }, (_, i) => pageText(`topic ${i + 1}`)));
    expect(JSON.stringify(sessions.load(first.taskId)).length).toBeLessThan(JSON.stringify(archive).length / 2);
    // Cut inside one long turn: still a user message first, every call answered right after it.
    const stored = sessions.load(first.taskId);
    expect(stored[0]).toMatchObject({ role: 'user' });
    expect(conversationProblems(stored)).toEqual([]);
    expect(alternationProblems(stored)).toEqual([]);
    // What UIs show of it.
    expect(toUiItem(first)).toMatchObject({ kind: 'compaction', depth: 1, taskAgentName: 'reader', contextWindow: 8_192, reason: 'context-limit' });
    expect(plainLine(first)).toMatch(/^\[reader#1\] context compacted \(context-limit\): [\d,]+ → [\d,]+ tokens of 8,192 \(\d+ tool output\(s\) pruned, \d+ message\(s\) summarised\)$/);
    const state = events.reduce((s, e) => reduceTree(s, e, 0), createTreeState());
    expect(state.root!.children[0]!.compactions).toBe(wrapped.length);
    expect(renderTree(state, { now: 0, width: 200 })).toContain(`compacted ${wrapped.length}×`);
  });
});
