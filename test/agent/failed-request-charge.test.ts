/**
 * A model of the user's own marks nothing on its errors: a request of it that fails after
 * streaming deltas is charged its prompt estimate and the characters the step saw (the
 * deltas prove its reply had begun). One that fails before any delta is charged nothing.
 */
import { describe, expect, it } from 'vitest';
import type { ContextSizeEvent } from '../../src/events/agent-event.js';
import { CHARS_PER_TOKEN } from '../../src/model/estimate-tokens.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';

const offline = offlineEnginePerTest();
const ONE = { promptTokens: 0, completionTokens: 1, totalTokens: 1 };
const task = { name: 'task', args: { agent_name: 'worker', prompt: 'dig', description: 'dig' } };

describe('a custom model failing mid-reply is charged what the step saw', () => {
  it('deltas then a failure: the prompt estimate and the characters streamed', async () => {
    const streamed = 'z'.repeat(40);
    const o = await offline(
      { main: (t) => (t.step === 1 ? { toolCalls: [task], usage: ONE } : { text: 'gave up', usage: ONE }), worker: () => ({ text: streamed, error: 'the connection dropped' }) },
      [testAgent('worker')],
      { tokenBudget: 100_000 },
    );
    const events = await collect(o.engine.stream('go'));
    const prompt = wraps(events).find((w) => w.event.type === 'ContextSize')!.event as ContextSizeEvent;
    expect(wraps(events).find((w) => w.event.type === 'RunEnd')!.event).toMatchObject({ abnormal: true, error: expect.stringContaining('the connection dropped') });
    expect(own(events, 'Budget').at(-1)!.used).toBe(1 + prompt.tokenCount + Math.ceil(streamed.length / CHARS_PER_TOKEN) + 1);
  });

  it('a failure before any delta: nothing', async () => {
    const o = await offline(
      { main: (t) => (t.step === 1 ? { toolCalls: [task], usage: ONE } : { text: 'gave up', usage: ONE }), worker: () => ({ error: 'refused' }) },
      [testAgent('worker')],
      { tokenBudget: 100_000 },
    );
    const events = await collect(o.engine.stream('go'));
    expect(own(events, 'Budget').at(-1)!.used).toBe(2);
  });
});
