/**
 * A context window learned from a refusal is checked against what the server then takes: one
 * refusal naming a window far too small (a lie, a miscount, a server since restarted larger)
 * must not leave every later request of the model summarised to nearly nothing, while a
 * window the server keeps to is kept.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { collect } from '../../support/collect-events.js';
import { estimateUsage } from '../../support/fake-openai-server.js';
import { alternationProblems, isSummaryRequest, SUMMARY } from '../../support/compaction-kit.js';
import { compactionsOf, propslessAgentsPerTest } from './propsless-agent.js';

const agentOn = propslessAgentsPerTest();

describe('a refusal that names a window of 8 tokens, then a server that takes far longer prompts', () => {
  it('is compacted once; the next turns, which the server takes whole, are not summarised again', async () => {
    let lie = true;
    const { agent, sessions, server } = await agentOn((r) => {
      if (isSummaryRequest(r)) return { text: SUMMARY };
      if (!lie) return { text: 'the answer' };
      lie = false;
      return { status: 400, errorMessage: "This model's maximum context length is 8 tokens" };
    });
    const first: AgentEvent[] = await collect(agent.stream('turn 1', { sessionId: 's' }));
    expect(first.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
    // No summary request fits 8 tokens: none is sent, and the event says so. The note that would
    // stand in for the old turns is longer than they are, pruned: they are kept (a compaction never grows the session).
    expect(compactionsOf(first)).toMatchObject([{ reason: 'context-exceeded', contextWindow: 8, summarisedMessages: 0, prunedToolResults: 2, summaryError: expect.stringMatching(/no summary request was sent/) }]);
    for (let turn = 2; turn <= 6; turn++) {
      const events: AgentEvent[] = await collect(agent.stream(`turn ${turn}`, { sessionId: 's' }));
      expect(events.at(-1), `turn ${turn}`).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the answer' });
      expect(compactionsOf(events), `turn ${turn}`).toEqual([]);
    }
    expect(server.requests.filter(isSummaryRequest)).toEqual([]);
    // The two stored turns and the six later ones are all in the session, as they were said.
    expect(sessions.load('s').filter((m) => m.role === 'user').map((m) => m.content.split('\n').at(-1))).toEqual(['Tell me about topic 1', 'Tell me about topic 2', 'turn 1', 'turn 2', 'turn 3', 'turn 4', 'turn 5', 'turn 6']);
    expect(alternationProblems(sessions.load('s'))).toEqual([]);
  });
});

describe('a server that keeps to the window its refusal named (1,500 tokens)', () => {
  it('is refused once: the window stays learned and later turns are compacted before they are sent', async () => {
    const WINDOW = 1_500;
    const { agent, server } = await agentOn((r) => {
      if (isSummaryRequest(r)) return { text: SUMMARY };
      const prompt = estimateUsage(r.body, {}).prompt_tokens;
      if (prompt > WINDOW) return { status: 400, errorMessage: `request (${prompt} tokens) exceeds the available context size (${WINDOW} tokens), try increasing it` };
      return { text: `the answer ${'in many words '.repeat(40)}` };
    });
    let compactions = 0;
    for (let turn = 1; turn <= 12; turn++) {
      const events: AgentEvent[] = await collect(agent.stream(`turn ${turn}`, { sessionId: 's' }));
      expect(events.at(-1), `turn ${turn}`).toMatchObject({ type: 'RunEnd', abnormal: false });
      compactions += compactionsOf(events).length;
    }
    expect(server.requests.filter((r) => r.status === 400)).toHaveLength(1);
    expect(compactions).toBeGreaterThan(1);
  });
});
