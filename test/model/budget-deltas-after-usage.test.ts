/**
 * A server that sent usage early (some send it with every chunk, some once, early) and then
 * streamed on before the connection broke: the usage counts only what came up to its own
 * chunk. The failed request was charged that usage alone, so every delta after it went
 * uncharged; it is now charged the usage plus the estimate of what came after it (four
 * characters a token), and the deltas the usage already counts are not counted again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN } from '../../src/model/estimate-tokens.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { chargeOfChild } from '../support/failed-child-charge.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** An SSE event of one content delta, with `usage` when given. */
function chunk(content: string, usage?: Record<string, number>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
}

/** The end of a whole reply: a finish chunk and `[DONE]`. */
const END = `${chunk('', undefined, 'stop')}data: [DONE]\n\n`;

const USAGE = { prompt_tokens: 3_000, completion_tokens: 10, total_tokens: 3_010 };
/** One later delta: 40 characters, 10 tokens of estimate. */
const DELTA = 'd'.repeat(40);
const LATER = 50;
const LATER_TOKENS = Math.ceil((LATER * DELTA.length) / CHARS_PER_TOKEN);

describe('a stream cut after its usage chunk is charged the usage and the estimate of what came after it', () => {
  it('usage in chunk 1, then 50 deltas, then the connection breaks: the usage plus the later deltas', async () => {
    const body = chunk(DELTA, USAGE) + chunk(DELTA).repeat(LATER);
    f = await startDelegationFixture();
    const { charged, childEnd } = await chargeOfChild(f, () => ({ rawSse: body, rawSseReset: true }));
    expect(childEnd).toMatchObject({ abnormal: true, error: expect.stringContaining('other side closed') });
    // Chunk 1's own delta is in its usage: only the 50 after it are estimated.
    expect(charged).toBe(USAGE.total_tokens + LATER_TOKENS);
    expect(charged).not.toBe(USAGE.total_tokens + LATER_TOKENS + DELTA.length / CHARS_PER_TOKEN);
  });

  it('deltas before the usage chunk are counted by it, not again: only those after it are estimated', async () => {
    const body = chunk(DELTA).repeat(20) + chunk(DELTA, USAGE) + chunk(DELTA).repeat(LATER);
    f = await startDelegationFixture();
    const { charged } = await chargeOfChild(f, () => ({ rawSse: body, rawSseReset: true }));
    expect(charged).toBe(USAGE.total_tokens + LATER_TOKENS);
  });

  it('usage with every chunk, then a cut: the last usage alone (nothing came after it)', async () => {
    const body = [1, 2, 3].map((n) => chunk(DELTA, { prompt_tokens: 3_000, completion_tokens: 10 * n, total_tokens: 3_000 + 10 * n })).join('');
    f = await startDelegationFixture();
    const { charged } = await chargeOfChild(f, () => ({ rawSse: body, rawSseReset: true }));
    expect(charged).toBe(3_030);
  });

  it('a usage of zeros, then deltas: still the estimate of the prompt and of every delta', async () => {
    const body = chunk(DELTA, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }) + chunk(DELTA).repeat(LATER);
    f = await startDelegationFixture();
    const { charged, prompt } = await chargeOfChild(f, () => ({ rawSse: body, rawSseReset: true }));
    expect(charged).toBe(prompt + Math.ceil(((LATER + 1) * DELTA.length) / CHARS_PER_TOKEN));
  });

  it('a whole reply with its usage early is charged as the same bytes cut are (review: it was the early usage alone)', async () => {
    const body = chunk(DELTA, USAGE) + chunk(DELTA).repeat(LATER) + END;
    f = await startDelegationFixture();
    const { charged, childEnd } = await chargeOfChild(f, () => ({ rawSse: body }));
    expect(childEnd).toMatchObject({ abnormal: false });
    expect(charged).toBe(USAGE.total_tokens + LATER_TOKENS);
  });

  it('a tiny usage first, then 100,000 characters of a whole reply: the estimate of them is charged', async () => {
    const body = chunk('x', { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 }) + chunk('y'.repeat(1_000)).repeat(100) + END;
    f = await startDelegationFixture();
    const { charged } = await chargeOfChild(f, () => ({ rawSse: body }));
    expect(charged).toBe(1 + Math.ceil(100_000 / CHARS_PER_TOKEN));
  });

  it('a whole reply with its usage last (after the finish, as include_usage sends it) is charged that usage exactly', async () => {
    const last = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [], usage: USAGE })}\n\n`;
    const body = chunk(DELTA).repeat(LATER) + chunk('', undefined, 'stop') + last + 'data: [DONE]\n\n';
    f = await startDelegationFixture();
    const { charged } = await chargeOfChild(f, () => ({ rawSse: body }));
    expect(charged).toBe(USAGE.total_tokens);
  });
});
