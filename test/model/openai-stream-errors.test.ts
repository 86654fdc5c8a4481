import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/model/model-error.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';

// Streams the fake server cannot produce: raw bodies written by hand.
let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function modelAnswering(answer: (res: ServerResponse) => void, timeoutMs?: number): Promise<OpenAIChatModel> {
  server = createServer((_req, res) => answer(res));
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return new OpenAIChatModel({ model: 'm', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'k', maxRetries: 0, timeoutMs });
}

function modelServing(body: string, contentType = 'text/event-stream'): Promise<OpenAIChatModel> {
  return modelAnswering((res) => {
    res.writeHead(200, { 'content-type': contentType });
    res.end(body);
  });
}

const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;
const ask = (model: OpenAIChatModel) => lastValueFrom(model.stream({ messages: [{ role: 'user', content: 'hi' }] }).pipe(toArray()));

describe('OpenAIChatModel stream bodies', () => {
  it('turns an error object sent inside the stream into a ModelError carrying its message', async () => {
    const stream = ask(await modelServing(chunk('partial ') + 'data: {"error":{"message":"overloaded, try later"}}\n\n'));
    await expect(stream).rejects.toThrow(ModelError);
    await expect(stream).rejects.toThrow('the stream reported an error: overloaded, try later');
  });

  it('reads a whole body arriving in one write, comments and all, and ignores what follows [DONE]', async () => {
    const events = Array.from({ length: 500 }, (_, i) => chunk(`${i},`)).join('');
    const chunks = await ask(await modelServing(`: keep-alive\n\n${events}data: [DONE]\n\n${chunk('ignored')}`));
    expect(chunks).toHaveLength(501);
    // [DONE] without any finish_reason: the server said it is done, so the reply is whole.
    expect(chunks.at(-1)).toEqual({ type: 'finish', text: Array.from({ length: 500 }, (_, i) => `${i},`).join(''), toolCalls: [] });
  });

  it('a 200 that is not an event stream (an HTML page): a ModelError quoting how it began', async () => {
    const stream = ask(await modelServing('<html><body>Welcome to nginx!</body></html>\n', 'text/html'));
    await expect(stream).rejects.toThrow('model "m": the response is not a stream of server-sent events; it began: <html><body>Welcome to nginx!</body></html>');
  });

  it('a 200 JSON body holding an error: a ModelError with its message', async () => {
    const stream = ask(await modelServing('{"error":{"message":"model is loading"}}', 'application/json'));
    await expect(stream).rejects.toThrow('model "m": the server answered 200 with an error: model is loading');
  });

  it('a 200 JSON body that is no chat completion: a ModelError quoting it', async () => {
    const stream = ask(await modelServing('{"status":"ok"}', 'application/json; charset=utf-8'));
    await expect(stream).rejects.toThrow('model "m": the server answered 200 with JSON that is not a chat completion: {"status":"ok"}');
  });

  it('keep-alive comments count as life: a slow first token behind them is not an idle stream', async () => {
    const model = await modelAnswering((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let beats = 0;
      const timer = setInterval(() => {
        if (++beats <= 8) return void res.write(': PROCESSING\n\n');
        clearInterval(timer);
        res.end(`${chunk('late but fine')}data: [DONE]\n\n`);
      }, 50);
    }, 200);
    expect((await ask(model)).at(-1)).toMatchObject({ type: 'finish', text: 'late but fine' });
  });
});
