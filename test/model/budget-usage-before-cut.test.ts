/**
 * Some servers send usage with every chunk (vLLM's continuous usage stats, some proxies). A
 * reply that fails after such a chunk is charged the last usage it sent, what the server
 * billed, instead of the estimate of its prompt and what it streamed; a usage of zeros is no
 * count, and the estimate stays. Before, the usage was ignored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN } from '../../src/model/estimate-tokens.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { chargeOfChild } from '../support/failed-child-charge.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** An SSE event of one content delta carrying `usage`. */
function chunk(content: string, usage: Record<string, number>): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }], usage })}\n\n`;
}

const TEXT = 'w'.repeat(48);

describe('usage a server sent before its reply failed', () => {
  it('a stream cut after chunks carrying usage is charged the last usage', async () => {
    // Two chunks, each with the usage so far, then the body ends: no finish_reason, no [DONE].
    const body = chunk(TEXT, { prompt_tokens: 3_000, completion_tokens: 12, total_tokens: 3_012 }) + chunk(TEXT, { prompt_tokens: 3_000, completion_tokens: 24, total_tokens: 3_024 });
    f = await startDelegationFixture();
    const { charged, prompt, childEnd } = await chargeOfChild(f, () => ({ rawSse: body }));
    expect(childEnd).toMatchObject({ abnormal: true, error: expect.stringContaining('without finish_reason or [DONE]') });
    expect(charged).toBe(3_024);
    expect(charged).not.toBe(prompt + Math.ceil((2 * TEXT.length) / CHARS_PER_TOKEN));
  });

  it('a usage of zeros counts nothing: the estimate is charged', async () => {
    const body = chunk(TEXT, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    f = await startDelegationFixture();
    const { charged, prompt } = await chargeOfChild(f, () => ({ rawSse: body }));
    expect(charged).toBe(prompt + Math.ceil(TEXT.length / CHARS_PER_TOKEN));
  });

  it('a JSON completion with usage that is no completion after all is charged that usage', async () => {
    const usage = { prompt_tokens: 2_000, completion_tokens: 7, total_tokens: 2_007 };
    const body = JSON.stringify({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: TEXT, tool_calls: 5 } }], usage });
    f = await startDelegationFixture();
    const { charged, childEnd } = await chargeOfChild(f, () => ({ rawSse: body, headers: { 'content-type': 'application/json' } }));
    expect(childEnd).toMatchObject({ abnormal: true, error: expect.stringContaining('not a chat completion') });
    expect(charged).toBe(2_007);
  });
});
