/**
 * A token budget against a server whose usage lies: numbers out of range (negative, over
 * `Number.MAX_VALUE`, strings), a total smaller than its own parts, a count near the largest
 * double. Whatever it says, the run ends on its budget, every `Budget` event holds finite
 * numbers, and nothing is charged `NaN` (a pool charged `NaN` would never be spent).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply } from '../support/delegation-script.js';
import type { FakeReply } from '../support/fake-openai-server.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** A step that calls a harmless tool, so the agent would go on until its step limit if nothing stopped it. */
const busy: FakeReply = { toolCalls: [{ name: 'todo', arguments: { todos: [] } }] };

/**
 * The same step replayed byte for byte, with `usage` spliced in as raw JSON text: numbers
 * `JSON.stringify` cannot write (`1e999` parses as `Infinity`).
 */
function rawStep(index: number, usage: string): FakeReply {
  const chunk = (body: string): string => `data: {"id":"r${index}","object":"chat.completion.chunk","created":0,"model":"m",${body}}\n\n`;
  const call = `{"index":0,"id":"call_${index}","type":"function","function":{"name":"todo","arguments":"{\\"todos\\":[]}"}}`;
  return {
    rawSse:
      chunk(`"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[${call}]},"finish_reason":null}]`) +
      chunk(`"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]`) +
      chunk(`"choices":[],"usage":${usage}`) +
      'data: [DONE]\n\n',
  };
}

/** The run's events as they would cross the wire: any `NaN` or `Infinity` would come back `null`. */
function expectFiniteBudgets(events: readonly AgentEvent[]): void {
  const budgets = own(events, 'Budget');
  expect(budgets.length).toBeGreaterThan(0);
  for (const b of budgets) {
    for (const n of [b.limit, b.used, b.remaining]) expect(Number.isFinite(n), JSON.stringify(b)).toBe(true);
  }
}

const lies: [string, string][] = [
  ['negative counts', '{"prompt_tokens":-500,"completion_tokens":-500,"total_tokens":-1000}'],
  ['counts over the largest double (Infinity once parsed)', '{"prompt_tokens":1e999,"completion_tokens":1e999,"total_tokens":1e999}'],
  ['counts as strings', '{"prompt_tokens":"900","completion_tokens":"100","total_tokens":"1000"}'],
  ['null counts', '{"prompt_tokens":null,"completion_tokens":null,"total_tokens":null}'],
];

describe.each(lies)('a token budget with a server that reports %s', (_, usage) => {
  it('is charged estimates, ends the run within its step limit, and every Budget event is finite', async () => {
    let n = 0;
    f = await startDelegationFixture({ main: () => rawStep(n++, usage) });
    const events = await collect(f.engine({ tokenBudget: 2_000, maxSteps: 200 }).stream('go'));
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: true, error: expect.stringContaining('the token budget is spent') });
    expect(f.requestsOf('main').length).toBeLessThan(200);
    expectFiniteBudgets(events);
    expect(own(events, 'Warning').filter((w) => w.code === 'usage-estimated')).toHaveLength(1);
  });
});

describe('a token budget with a server whose usage lies', () => {
  it('a count near the largest double ends the run after its first step, with finite Budget numbers', async () => {
    f = await startDelegationFixture({ main: () => ({ ...busy, usage: { prompt_tokens: 1e308, completion_tokens: 0, total_tokens: 1e308 } }) });
    const events = await collect(f.engine({ tokenBudget: 2_000, maxSteps: 200 }).stream('go'));
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: true, error: expect.stringContaining('the token budget is spent') });
    expect(f.requestsOf('main')).toHaveLength(1);
    expectFiniteBudgets(events);
  });

  it('a total smaller than its own parts is charged the parts: 10,000 tokens reported as a total of 1 still spend a budget of 2,000', async () => {
    f = await startDelegationFixture({ main: () => ({ ...busy, rawUsage: { prompt_tokens: 9_000, completion_tokens: 1_000, total_tokens: 1 } }) });
    const events = await collect(f.engine({ tokenBudget: 2_000, maxSteps: 200 }).stream('go'));
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: true, error: expect.stringContaining('the token budget is spent') });
    expect(f.requestsOf('main')).toHaveLength(1);
    expect(own(events, 'Budget')[0]).toMatchObject({ used: 10_000, remaining: 0 });
  });
});

describe('children of a multitask whose server reports counts near the largest double', () => {
  it('spend the parent budget without overflowing it: every Budget event and every metric stays finite', async () => {
    const huge = { prompt_tokens: 1e308, completion_tokens: 0, total_tokens: 1e308 };
    const tasks = [1, 2, 3].map((i) => [i, 'worker', `job ${i}`, `t${i}`] as const);
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? multitaskReply(tasks) : { text: 'summary', usage: huge }),
      worker: () => ({ ...busy, usage: huge }),
    });
    const events = await collect(f.engine({ tokenBudget: 100_000, maxSteps: 20 }, [testAgent('worker')]).stream('go'));
    const end = own(events, 'RunEnd')[0]!;
    expect(end).toMatchObject({ abnormal: true, error: expect.stringContaining('the token budget is spent') });
    expect(f.requestsOf('worker')).toHaveLength(3); // all three in flight together, each let through
    const all = [...events, ...wraps(events).map((w) => w.event)];
    for (const e of all) {
      if (e.type === 'Budget') for (const n of [e.limit, e.used, e.remaining]) expect(Number.isFinite(n), JSON.stringify(e)).toBe(true);
      if (e.type === 'RunEnd') expect(JSON.parse(JSON.stringify(e.metrics))).toEqual(e.metrics);
    }
  });
});
