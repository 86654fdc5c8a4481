/**
 * A server that alternates refusals and accepts at random sizes (a liar in both) never makes
 * a run loop, nor every turn summarise: a window it taught is forgotten once it takes a
 * longer prompt (a property, over seeded random scripts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import { collect } from '../../support/collect-events.js';
import { estimateUsage, type FakeHandler, type FakeReply } from '../../support/fake-openai-server.js';
import { alternationProblems, isSummaryRequest, SUMMARY } from '../../support/compaction-kit.js';
import { compactionsOf, propslessAgentsPerTest } from './propsless-agent.js';

const agentOn = propslessAgentsPerTest();
const promptOf = (r: Parameters<FakeHandler>[0]): number => estimateUsage(r.body, {}).prompt_tokens;
const refusal = (window: number): FakeReply => ({ status: 400, errorMessage: `This model's maximum context length is ${window} tokens` });

/**
 * One decision of the hostile server for a chat request: refuse it naming a window of
 * `share` of its size (percent), or take it saying it counted `share` of its size.
 */
const decision = fc.record({ refuse: fc.boolean(), share: fc.integer({ min: 5, max: 300 }) });

describe('a server alternating refusals and accepts at random sizes (property, seeded)', () => {
  it('never loops a run, and never has every turn summarise', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(decision, { minLength: 1, maxLength: 40 }), async (script) => {
        const decisions = script.slice();
        const { agent, sessions, server } = await agentOn((r) => {
          if (isSummaryRequest(r)) return { text: SUMMARY };
          const next = decisions.shift();
          if (!next) return { text: 'ok' };
          const size = Math.max(1, Math.round((promptOf(r) * next.share) / 100));
          if (next.refuse) return refusal(Math.min(size, promptOf(r) - 1));
          return { text: 'ok', usage: { prompt_tokens: size, completion_tokens: 1, total_tokens: size + 1 } };
        });
        const TURNS = 10;
        let refusedTurns = 0;
        let preemptive = 0;
        for (let turn = 1; turn <= TURNS; turn++) {
          const before = server.requests.length;
          const events: AgentEvent[] = await collect(agent.stream(`turn ${turn}`, { sessionId: 's' }));
          // Every run ends (a second refusal in a step ends it abnormally, never a loop).
          expect(events.at(-1)?.type).toBe('RunEnd');
          const sent = server.requests.slice(before);
          // At most: a request, a refusal's compaction with its summary, one more request; and a compaction before the first.
          expect(sent.filter((r) => !isSummaryRequest(r)).length).toBeLessThanOrEqual(2);
          expect(sent.filter(isSummaryRequest).length).toBeLessThanOrEqual(2);
          if (sent.some((r) => r.status === 400)) refusedTurns++;
          else if (compactionsOf(events).some((c) => c.reason === 'context-limit')) preemptive++;
        }
        // The turns the server took at once are not all summarised before they were sent.
        const accepted = TURNS - refusedTurns;
        if (accepted >= 2) expect(preemptive).toBeLessThan(accepted);
        expect(alternationProblems(sessions.load('s'))).toEqual([]);
        await server.close();
      }),
      { seed: 51, numRuns: 20 },
    );
  }, 120_000);
});
