/**
 * A compaction skipped as futile (the part it must keep, or the system prompt and tool
 * schemas, cannot fit the window) must be futile for sure. The window a compaction sizes by
 * is scaled by the token ratio of the last request, an average over a whole request: short
 * messages, each with its template overhead, count twice their estimate, one long tool result
 * barely more. Judged by that ratio alone, a 3 KB page under a 1,024-token window looked as
 * if it could never fit, so no summary was written and turn after turn failed, where
 * summarising the turns before it makes it fit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, RunEndEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { alternationProblems, isSummaryRequest, pageTool, pageTurns } from '../../support/compaction-kit.js';
import { conversationProblems } from '../../support/conversation.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('a session of page turns under a 1,024-token window (each page some 750 tokens)', () => {
  it('summarises the turns before each page and answers all twelve turns, none refused', async () => {
    const server = await FakeOpenAIServer.start({ contextSize: 1_024, handler: pageTurns });
    servers.push(server);
    const sessions = new MemorySessionStore();
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [pageTool] });
    for (let turn = 1; turn <= 12; turn++) {
      const events: AgentEvent[] = await collect(agent.stream(`topic ${turn}`, { sessionId: 's' }));
      expect(events.at(-1) as RunEndEvent, `turn ${turn}`).toMatchObject({ abnormal: false, text: `answer ${turn}` });
      // A 1,024-token window is tight (`context-window-tight`, in the runs that compact): nothing else is warned of.
      expect(events.filter((e) => e.type === 'Warning' && e.code !== 'context-window-tight'), `turn ${turn}`).toEqual([]);
    }
    expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
    // One summary a turn from the third on (the turns before its page), none skipped as futile.
    expect(server.requests.filter(isSummaryRequest).length).toBeGreaterThanOrEqual(10);
    expect(conversationProblems(sessions.load('s'))).toEqual([]);
    expect(alternationProblems(sessions.load('s'))).toEqual([]);
  });
});
