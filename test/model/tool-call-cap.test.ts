/**
 * The model counts a reply's tool calls as it reads them and stops at the first one over
 * MAX_TOOL_CALLS_PER_STEP. The count is of distinct calls, whatever the indexes a server
 * sends: jumping to 1,000,000,000, repeating, going backwards. An index that is no whole
 * number from 0 fails with a clear error instead of losing its call (an array slot at -1 or
 * 1.5 is no element), and a huge one is one entry, never an array that long (whose scan took
 * 40 s of CPU at 1e9).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TOOL_CALLS_PER_STEP } from '../../src/agent/defaults.js';
import type { ModelChunk, ModelFinish } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { outcomeOf } from '../support/collect.js';
import { FakeOpenAIServer, type FakeReply } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const request = { messages: [{ role: 'user' as const, content: 'go' }], tools: [{ name: 'echo', description: 'echo', parameters: { type: 'object' } }] };

/** How one request answered with `reply` ended: its finish, or its error. */
async function answer(reply: FakeReply): Promise<{ finish?: ModelFinish; error: unknown; server: FakeOpenAIServer }> {
  const server = await FakeOpenAIServer.start();
  servers.push(server);
  server.enqueue(reply);
  const outcome = await outcomeOf<ModelChunk>(openAIModelFor(server).stream(request));
  const finish = outcome.values.find((c): c is ModelFinish => c.type === 'finish');
  return { ...(finish ? { finish } : {}), error: outcome.error, server };
}

type Fragment = { index?: unknown; id?: string; function?: { name?: string; arguments?: string } };

/** An SSE body whose chunks carry `fragments`, one a chunk, then a finish and `[DONE]`. */
function sse(fragments: readonly Fragment[]): string {
  const chunk = (delta: object, finish: string | null): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return fragments.map((f) => chunk({ tool_calls: [f] }, null)).join('') + chunk({}, 'tool_calls') + 'data: [DONE]\n\n';
}

const named = (index: unknown, n: number): Fragment => ({ index, id: `c${n}`, function: { name: 'echo', arguments: '' } });
const args = (index: unknown, text: string): Fragment => ({ index, function: { arguments: text } });

describe('tool-call indexes a server may send', () => {
  it('counts distinct calls: a first index of 1e9, repeats and a step backwards make three calls, in index order', async () => {
    const body = sse([named(1e9, 1), args(1e9, '{"a":'), named(5, 2), args(1e9, '1}'), named(0, 3), args(5, '{}'), args(0, '{}'), args(0, '')]);
    const { finish, error } = await answer({ rawSse: body });
    expect(error).toBeUndefined();
    expect(finish?.toolCalls).toEqual([
      { id: 'c3', name: 'echo', arguments: '{}' },
      { id: 'c2', name: 'echo', arguments: '{}' },
      { id: 'c1', name: 'echo', arguments: '{"a":1}' },
    ]);
    expect(finish?.toolCallsCut).toBeUndefined();
  });

  it('a fragment without an index after indexed ones starts a call past every index seen, not past the last one', async () => {
    const body = sse([named(1, 1), named(0, 2), { id: 'c3', function: { name: 'echo', arguments: '{}' } }, args(1, '{"b":1}'), args(0, '{}')]);
    const { finish, error } = await answer({ rawSse: body });
    expect(error).toBeUndefined();
    expect(finish?.toolCalls).toEqual([
      { id: 'c2', name: 'echo', arguments: '{}' },
      { id: 'c1', name: 'echo', arguments: '{"b":1}' },
      { id: 'c3', name: 'echo', arguments: '{}' },
    ]);
  });

  it('one call, however often its index repeats, is never a flood', async () => {
    const body = sse([named(7, 1), ...Array.from({ length: 1_000 }, () => args(7, 'x'))]);
    const { finish } = await answer({ rawSse: body });
    expect(finish?.toolCalls).toHaveLength(1);
    expect(finish?.toolCalls[0]?.arguments).toBe('x'.repeat(1_000));
  });

  // 1e400 parses as Infinity; JSON.stringify cannot write it, so it is put in by hand.
  it.each([-1, 1.5, 2 ** 53, '1e400'])('fails on index %s with an error that says why, instead of losing the call', async (index) => {
    const body = sse([named(0, 1), args(0, '{}'), named(index, 2)]).replace('"1e400"', '1e400');
    const { finish, error } = await answer({ rawSse: body });
    expect(finish).toBeUndefined();
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toMatch(/tool-call fragment with index .+ \(call 2 of the reply\): an index must be a whole number from 0/);
  });

  it(`stops at the ${MAX_TOOL_CALLS_PER_STEP + 1}th distinct call, counting neither repeats nor steps backwards`, async () => {
    const fragments: Fragment[] = [];
    // Calls at even indexes, each named and then continued after a step back to call 0.
    for (let n = 0; n <= MAX_TOOL_CALLS_PER_STEP + 5; n++) fragments.push(named(2 * n, n), args(0, ''), args(2 * n, '{}'));
    const { finish, error } = await answer({ rawSse: sse(fragments) });
    expect(error).toBeUndefined();
    expect(finish?.toolCallsCut).toBe(true);
    expect(finish?.toolCalls).toHaveLength(MAX_TOOL_CALLS_PER_STEP + 1);
    expect(finish?.toolCalls.at(-1)).toMatchObject({ id: `c${MAX_TOOL_CALLS_PER_STEP}`, name: 'echo' });
  });

  it(`keeps ${MAX_TOOL_CALLS_PER_STEP} calls whole`, async () => {
    const fragments = Array.from({ length: MAX_TOOL_CALLS_PER_STEP }, (_, n) => [named(n, n), args(n, '{}')]).flat();
    const { finish } = await answer({ rawSse: sse(fragments) });
    expect(finish?.toolCalls).toHaveLength(MAX_TOOL_CALLS_PER_STEP);
    expect(finish?.toolCallsCut).toBeUndefined();
  });
});

describe('a flood in one piece', () => {
  const flood = Array.from({ length: 10_000 }, (_, i) => ({ name: 'echo', arguments: { text: `call ${i}` } }));

  it('a whole JSON completion keeps the calls up to the first over the limit', async () => {
    const { finish } = await answer({ toolCalls: flood, ignoreStream: true });
    expect(finish?.toolCallsCut).toBe(true);
    expect(finish?.toolCalls).toHaveLength(MAX_TOOL_CALLS_PER_STEP + 1);
  });

  it('one SSE chunk carrying every call is cut the same way', async () => {
    const fragments = flood.map((call, i) => ({ index: i, id: `c${i}`, function: { name: call.name, arguments: JSON.stringify(call.arguments) } }));
    const body = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: fragments }, finish_reason: null }] })}\n\ndata: [DONE]\n\n`;
    const { finish } = await answer({ rawSse: body });
    expect(finish?.toolCallsCut).toBe(true);
    expect(finish?.toolCalls).toHaveLength(MAX_TOOL_CALLS_PER_STEP + 1);
  });
});
