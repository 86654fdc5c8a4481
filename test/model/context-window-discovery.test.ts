import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

describe('the context window of an OpenAIChatModel', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('is what llama.cpp announces at /props (n_ctx of a slot), asked once and kept', async () => {
    server = await FakeOpenAIServer.start({ contextSize: 3_072 });
    const model = openAIModelFor(server);
    expect(await model.contextWindow()).toBe(3_072);
    expect(await model.contextWindow()).toBe(3_072);
    expect(server.propsRequests).toBe(1);
  });

  it('is the contextWindow setting when given, without asking the server', async () => {
    server = await FakeOpenAIServer.start({ contextSize: 3_072 });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'test', maxRetries: 0 });
    const model = new OpenAIChatModel({ model: 'm', client, settings: { contextWindow: 16_000 } });
    expect(model.contextWindow()).toBe(16_000);
    expect(server.propsRequests).toBe(0);
  });

  it('is unknown (undefined, no error) from a server without /props, and from one that is down', async () => {
    server = await FakeOpenAIServer.start(); // answers /props with 404, as OpenAI, vLLM and Ollama do
    expect(await openAIModelFor(server).contextWindow()).toBeUndefined();
    const port = await closedPort();
    const down = new OpenAIChatModel({ model: 'm', baseURL: `http://127.0.0.1:${port}/v1` });
    expect(await down.contextWindow()).toBeUndefined();
  });

  it('refuses a contextWindow setting that is no whole number of tokens', () => {
    expect(() => new OpenAIChatModel({ model: 'm', baseURL: 'http://127.0.0.1:1/v1', settings: { contextWindow: 12.5 } })).toThrow(/contextWindow must be a whole number of tokens/);
  });
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
