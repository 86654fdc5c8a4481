/**
 * A step's request carries its budget recheck as a field (`ChatRequest.admit`), which the
 * request limiter asks when the request gets its slot. A user's own model wrapper that copies
 * the request on its way to the limiter (`{ ...request }`) must keep it: a check kept beside
 * the request, keyed by the object, was lost by the copy, and the request was sent past a
 * pool spent while it waited.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { firstValueFrom, toArray } from 'rxjs';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { scopeOfOptions } from '../../src/agent/resolve-agent-options.js';
import type { ChatModel } from '../../src/model/chat-model.js';
import { requestLimiter } from '../../src/model/limit-requests.js';
import { MemoryTokenBudget } from '../../src/model/memory-token-budget.js';
import { collect } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

let server: FakeOpenAIServer | undefined;
afterEach(() => server?.close());

describe("a step's request copied by a user's model wrapper on its way to the request limiter", () => {
  it('still looks at the budget at its slot: not sent once the pool was spent while it waited', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server = await FakeOpenAIServer.start({
      handler: async (r) => {
        // The request holding the one slot: answered once the test lets it go.
        if (r.body.messages?.at(-1)?.content === 'hold the slot') await gate;
        return { text: 'the answer' };
      },
    });
    const limiter = requestLimiter(1);
    const limited = limiter.wrap(openAIModelFor(server));
    // A wrapper of the user's around the limited model, as one adding a header or a log would be.
    const copying: ChatModel = { id: limited.id, stream: (request) => limited.stream({ ...request }) };
    const holder = firstValueFrom(limited.stream({ messages: [{ role: 'user', content: 'hold the slot' }] }).pipe(toArray()));
    await server.waitForRequests(1);
    let pool: MemoryTokenBudget | undefined;
    const scope = { ...scopeOfOptions({ model: copying, tokenBudget: 10_000 }), newBudget: (limit: number) => (pool = new MemoryTokenBudget(limit)) };
    const run = collect(ReActAgent.ofScope('main', () => scope).stream('a question'));
    await expect.poll(() => limiter.waiting).toBe(1); // the step's request, queued
    // Another user of the pool spends it while the request waits.
    pool!.reserve(1)!.settle(10_000);
    release();
    await holder;
    const events = await run;
    expect(server.requests).toHaveLength(1); // the holder's only: the step's request was not sent
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining('so no further model request was made') });
    expect(pool!.used).toBe(10_000);
  });
});
