import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/model/model-error.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';

// Streams the fake server cannot produce: raw SSE bodies written by hand.
let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function modelServing(body: string): Promise<OpenAIChatModel> {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return new OpenAIChatModel({ model: 'm', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'k', maxRetries: 0 });
}

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

describe('OpenAIChatModel stream bodies', () => {
  it('turns an error object sent inside the stream into a ModelError carrying its message', async () => {
    const model = await modelServing(chunk('partial ') + 'data: {"error":{"message":"overloaded, try later"}}\n\n');
    const stream = lastValueFrom(model.stream({ messages: [{ role: 'user', content: 'hi' }] }).pipe(toArray()));
    await expect(stream).rejects.toThrow(ModelError);
    await expect(stream).rejects.toThrow('the stream reported an error: overloaded, try later');
  });

  it('reads a whole body arriving in one write, comments and all, and ignores what follows [DONE]', async () => {
    const events = Array.from({ length: 500 }, (_, i) => chunk(`${i},`)).join('');
    const model = await modelServing(`: keep-alive\n\n${events}data: [DONE]\n\n${chunk('ignored')}`);
    const chunks = await lastValueFrom(model.stream({ messages: [{ role: 'user', content: 'hi' }] }).pipe(toArray()));
    const finish = chunks.at(-1);
    expect(chunks).toHaveLength(501);
    expect(finish).toMatchObject({ type: 'finish', text: Array.from({ length: 500 }, (_, i) => `${i},`).join('') });
  });
});
