/**
 * A 2xx whose whole JSON completion (a server that ignored `stream: true`) fails after all is
 * charged as a cut stream is: its prompt (`ContextSize.tokenCount`) and the characters of the
 * body read so far, four a token. A 2xx without a body is charged its prompt: the server took
 * it. Before, the first was charged its prompt only and the second nothing.
 */
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { failedRequestTokens } from '../../src/agent/step-budget.js';
import type { ModelChunk } from '../../src/model/chat-model.js';
import { CHARS_PER_TOKEN } from '../../src/model/estimate-tokens.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { replyLimitOf } from '../../src/model/reply-limit.js';
import { testAgent } from '../support/agent-turns.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { chargeOfChild } from '../support/failed-child-charge.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

let f: DelegationFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});
const http = httpServerPerTest();

describe('a 2xx JSON completion that fails is charged its prompt and what was read', () => {
  it('a body that ends in the middle of the completion', async () => {
    const body = `{"id":"chatcmpl-1","choices":[{"index":0,"message":{"role":"assistant","content":"${'x'.repeat(200)}`;
    f = await startDelegationFixture();
    const { charged, prompt, childEnd } = await chargeOfChild(f, () => ({ rawSse: body, headers: JSON_HEADERS }));
    expect(childEnd).toMatchObject({ abnormal: true, error: expect.stringContaining('JSON that is not a chat completion') });
    expect(charged).toBe(prompt + Math.ceil(body.length / CHARS_PER_TOKEN));
  });

  it('a body larger than a reply may take, refused at the piece that passed the limit', async () => {
    const jsonBytes = replyLimitOf({ max_tokens: 1 }).jsonBytes;
    // One character over the limit, sent without a Content-Length: only its last piece passes it.
    const body = 'y'.repeat(jsonBytes + 1);
    f = await startDelegationFixture();
    const worker = testAgent('worker', { settings: { maxTokens: 1 } });
    const { charged, prompt, childEnd } = await chargeOfChild(f, () => ({ rawSse: body, headers: JSON_HEADERS }), {}, worker);
    expect(childEnd).toMatchObject({ abnormal: true, error: expect.stringContaining('JSON completion of more than') });
    expect(charged).toBe(prompt + Math.ceil(body.length / CHARS_PER_TOKEN));
  });

  it('a 2xx without a body (a fetch of the user\'s own gives none) is charged its prompt', async () => {
    f = await startDelegationFixture();
    const client = new OpenAI({ baseURL: f.server.baseURL, apiKey: 'test', maxRetries: 0 });
    const model = new OpenAIChatModel({ model: 'fake-model', client, maxRetries: 0 });
    const { charged, prompt, childEnd } = await chargeOfChild(f, () => ({ status: 204, headers: { 'content-type': 'text/event-stream' } }), { model });
    expect(childEnd).toMatchObject({ abnormal: true, error: expect.stringContaining('no body to stream') });
    expect(charged).toBe(prompt);
  });
});

describe('a JSON body cut by the connection', () => {
  it('its failure carries the characters that arrived', async () => {
    const start = `{"id":"chatcmpl-1","choices":[{"index":0,"message":{"role":"assistant","content":"${'z'.repeat(120)}`;
    const url = await http.serve((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, JSON_HEADERS);
        res.write(start, () => res.socket?.destroy());
      });
    });
    const model = new OpenAIChatModel({ model: 'm', baseURL: `${url}/v1`, apiKey: 'test', maxRetries: 0 });
    const error = await new Promise<unknown>((resolve) => {
      model.stream({ messages: [{ role: 'user', content: 'hi' }] }).subscribe({ next: (_: ModelChunk) => undefined, error: resolve, complete: () => resolve(undefined) });
    });
    expect(error).toBeInstanceOf(Error);
    expect(failedRequestTokens(error, 100, undefined)).toBe(100 + Math.ceil(start.length / CHARS_PER_TOKEN));
  });
});
