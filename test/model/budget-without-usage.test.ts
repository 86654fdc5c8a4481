/**
 * A token budget charges what a request used even when its server does not say: a reply
 * without usage, or with a usage of zero tokens for a request that sent a prompt, is charged
 * an estimate (`estimateRequestTokens` and the answer), with one `usage-estimated` Warning per run. Before, a
 * server reporting zeros was never charged, and its budget never ended a run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import type { FakeReply } from '../support/fake-openai-server.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** A step that calls a harmless tool, so the agent would go on until its step limit if nothing stopped it. */
const busy: FakeReply = { toolCalls: [{ name: 'todo', arguments: { todos: [] } }] };

const servers: [string, Partial<FakeReply>][] = [
  ['reports zero tokens', { rawUsage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }],
  ['reports only a total of 0', { rawUsage: { total_tokens: 0 } }],
  ['reports no usage', { usage: false }],
];

describe.each(servers)('a token budget with a server that %s', (_, quirk) => {
  it('is charged estimates, ends the run, and says so once', async () => {
    f = await startDelegationFixture({ main: () => ({ ...busy, ...quirk }) });
    const events = await collect(f.engine({ tokenBudget: 2000, maxSteps: 200 }).stream('go'));
    const end = own(events, 'RunEnd')[0]!;
    expect(end).toMatchObject({ abnormal: true, error: expect.stringContaining('the token budget is spent') });
    expect(f.requestsOf('main').length).toBeLessThan(200);
    expect(own(events, 'Budget').at(-1)!.used).toBeGreaterThanOrEqual(2000);
    const warnings = own(events, 'Warning').filter((w) => w.code === 'usage-estimated');
    expect(warnings).toHaveLength(1);
  });
});
