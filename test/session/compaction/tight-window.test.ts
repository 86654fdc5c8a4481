/**
 * A window the fixed part of a request (system prompt, tool schemas) and the answer's room
 * (nearly) fill: the answer's room is at most half of what the fixed part leaves, so the
 * conversation keeps the other half and is not summarised at every turn; and when that half is
 * small, the run that compacts is told why (`context-window-tight`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import type { Tool } from '../../../src/tools/tool.js';
import { collect } from '../../support/collect-events.js';
import { isSummaryRequest, SUMMARY } from '../../support/compaction-kit.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { TEXT_PARAMETERS } from '../../support/test-tools.js';

let server: FakeOpenAIServer | undefined;
afterEach(() => server?.close());

/** A tool whose schema takes some 3,100 tokens, never called: a 4,096-token window keeps about 1,000 for the rest. */
const wordy: Tool<{ text: string }> = { name: 'wordy', description: 'Does a thing. '.repeat(880), parameters: TEXT_PARAMETERS, execute: () => 'ok' };

const tight = (events: readonly AgentEvent[]): AgentEvent[] => events.filter((e) => e.type === 'Warning' && e.code === 'context-window-tight');

describe('an answer reserve that would leave the conversation no room', () => {
  it('maxTokens as large as the window: short turns are never summarised, and max_tokens is still sent as set', async () => {
    server = await FakeOpenAIServer.start({ contextSize: 8_192, handler: (r) => (isSummaryRequest(r) ? { text: SUMMARY } : { text: `short answer ${r.index}` }) });
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions: new MemorySessionStore(), instructions: 'Be brief.', settings: { maxTokens: 8_192 } });
    for (let turn = 1; turn <= 12; turn++) {
      const events: AgentEvent[] = await collect(agent.stream(`question ${turn}`, { sessionId: 's' }));
      expect(events.at(-1), `turn ${turn}`).toMatchObject({ type: 'RunEnd', abnormal: false });
      expect(events.filter((e) => e.type === 'Compaction'), `turn ${turn}`).toEqual([]);
    }
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(0);
    expect(server.requests.at(-1)!.body.messages).toHaveLength(1 + 12 * 2 - 1); // the system prompt and every turn
    expect(server.requests.at(-1)!.body.max_tokens).toBe(8_192);
  });
});

describe('a small window under large tool schemas', () => {
  it('compacts every few turns, not every turn, and each run that compacts is warned once, after its Compaction', async () => {
    server = await FakeOpenAIServer.start({ handler: (r) => (isSummaryRequest(r) ? { text: SUMMARY } : { text: `ok ${'x'.repeat(200)} ${r.index}` }) });
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions: new MemorySessionStore(), tools: [wordy], settings: { contextWindow: 4_096 } });
    let compacting = 0;
    const turns = 24;
    for (let turn = 1; turn <= turns; turn++) {
      const events: AgentEvent[] = await collect(agent.stream(`question ${turn} ${'y'.repeat(100)}`, { sessionId: 's' }));
      expect(events.at(-1), `turn ${turn}`).toMatchObject({ type: 'RunEnd', abnormal: false });
      const compactions = events.filter((e) => e.type === 'Compaction');
      const warned = tight(events);
      if (compactions.length === 0) {
        expect(warned, `turn ${turn}`).toEqual([]);
        continue;
      }
      compacting++;
      expect(warned, `turn ${turn}`).toHaveLength(1);
      expect(events.indexOf(warned[0]!)).toBeGreaterThan(events.indexOf(compactions[0]!));
      expect(warned[0]).toMatchObject({ message: expect.stringMatching(/left for the conversation, so it is compacted every few turns.*fewer tools/) });
    }
    // Each compaction keeps room for more than one turn: at most one turn in three compacts.
    expect(compacting).toBeGreaterThan(0);
    expect(compacting).toBeLessThanOrEqual(turns / 3);
  });
});
