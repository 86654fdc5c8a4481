/**
 * With `maxConcurrentRequests`, a compaction's summary request may wait for its slot long
 * after its step reserved from the token budget. It must look at the pool again when it gets
 * the slot, as a step's request does (its `admit`, `budgetAdmit`): else a run whose pool was spent
 * meanwhile (by its siblings, or another process sharing it) still sends a summary of
 * thousands of tokens past the budget.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { firstValueFrom, toArray } from 'rxjs';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import { scopeOfOptions } from '../../../src/agent/resolve-agent-options.js';
import { requestLimiter } from '../../../src/model/limit-requests.js';
import { MemoryTokenBudget } from '../../../src/model/memory-token-budget.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { collect } from '../../support/collect-events.js';
import { chatHistory, isSummaryRequest, SUMMARY } from '../../support/compaction-kit.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';

let server: FakeOpenAIServer | undefined;
afterEach(() => server?.close());

describe('a summary request queued behind maxConcurrentRequests', () => {
  it('is not sent once the pool was spent while it waited: the run ends as refused, past its budget by nothing, its session unchanged', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server = await FakeOpenAIServer.start({
      handler: async (r) => {
        const last = r.body.messages?.at(-1);
        // The request holding the one slot: answered once the test lets it go.
        if (last?.role === 'user' && last.content === 'hold the slot') await gate;
        return isSummaryRequest(r) ? { text: SUMMARY } : { text: 'the answer' };
      },
    });
    const limiter = requestLimiter(1);
    const model = limiter.wrap(openAIModelFor(server));
    const holder = firstValueFrom(model.stream({ messages: [{ role: 'user', content: 'hold the slot' }] }).pipe(toArray()));
    await server.waitForRequests(1);
    const sessions = new MemorySessionStore();
    sessions.append('s', chatHistory(4));
    const stored = structuredClone(sessions.load('s'));
    let pool: MemoryTokenBudget | undefined;
    // A 1,500-token window the stored chat (some 3,200 tokens) overflows: the step compacts before its request.
    const options = { model, sessions, tokenBudget: 10_000, settings: { contextWindow: 1_500 } };
    const scope = { ...scopeOfOptions(options), newBudget: (limit: number) => (pool = new MemoryTokenBudget(limit)) };
    const run = collect(ReActAgent.ofScope('main', () => scope).stream('next question', { sessionId: 's' }));
    await expect.poll(() => limiter.waiting).toBe(1); // the summary request, queued
    // Another user of the pool spends it while the summary waits.
    pool!.reserve(1)!.settle(10_000);
    release();
    await holder;
    const events = await run;
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(0);
    expect(server.requests).toHaveLength(1); // the holder's only: neither the summary nor the step was sent
    // Nothing was summarised, so nothing may change: no note in place of the earlier turns.
    expect(events.filter((e) => e.type === 'Compaction')).toEqual([]);
    // The earlier turns as they were, then the prompt (and the note that closes the unfinished turn).
    expect(sessions.load('s').slice(0, stored.length + 1)).toEqual([...stored, { role: 'user', content: 'next question' }]);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining('so no further model request was made') });
    expect(pool!.used).toBe(10_000);
  });
});
