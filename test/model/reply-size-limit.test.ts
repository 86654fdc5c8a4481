/**
 * A reply has a size limit: a server that ignores `max_tokens`, or a model that loops, streams
 * without end, and the idle timeout never fires while chunks arrive; a whole JSON body was
 * read however large. Either grew the memory without bound and held the run.
 */
import { createServer, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';

/** A server that answers every request with `write`, and what it saw. */
interface HostileServer {
  readonly baseURL: string;
  /** Requests received. */
  requests: number;
  /** Responses whose connection the client closed before they ended (all of them: none ends). */
  closedByClient: number;
}

const servers: Array<Server | FakeOpenAIServer> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await (server instanceof FakeOpenAIServer ? server.close() : new Promise((done) => server.close(done)));
});

/**
 * Writes `piece(i)` for i = 0, 1, 2... forever (minding backpressure), until the client
 * leaves; a piece `undefined` stops the writing, leaving the response open and silent.
 */
async function serveEndless(headers: OutgoingHttpHeaders, piece: (i: number) => string | undefined): Promise<HostileServer> {
  const seen = { baseURL: '', requests: 0, closedByClient: 0 };
  const server = createServer((req, res: ServerResponse) => {
    seen.requests++;
    req.resume();
    res.writeHead(200, headers);
    let open = true;
    res.once('close', () => {
      open = false;
      if (!res.writableEnded) seen.closedByClient++;
    });
    let i = 0;
    const pump = (): void => {
      for (let next = piece(i++); open && next !== undefined; next = piece(i++)) {
        if (!res.write(next)) return void res.once('drain', pump);
      }
    };
    pump();
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  seen.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return seen;
}

/** An SSE body: 64 events of `delta` each write. */
const sse = (delta: object) => () => `data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`.repeat(64);
const SSE = { 'content-type': 'text/event-stream' };
const ask = (baseURL: string, request: Partial<ChatRequest> = {}, maxTokens?: number) =>
  // maxRetries 2: a reply given up is never sent again
  lastValueFrom(new OpenAIChatModel({ model: 'm', baseURL, apiKey: 'k', maxRetries: 2, settings: maxTokens ? { maxTokens } : {} }).stream({ messages: [{ role: 'user', content: 'hi' }], ...request }).pipe(toArray()));

describe('the size limit of a reply', () => {
  it('an endless text stream fails past 4 x maxTokens x 4 characters (1 MiB at least), its request aborted and not retried', async () => {
    const server = await serveEndless(SSE, sse({ content: 'loop '.repeat(200) }));
    const reply = ask(server.baseURL, {}, 100);
    await expect(reply).rejects.toThrow(ModelError);
    await expect(reply).rejects.toThrow(
      'model "m": the server streamed more than 1,048,576 characters of text, reasoning and tool-call arguments for a reply of at most 100 tokens (maxTokens): it ignores max_tokens, or loops: the reply was abandoned and its request aborted',
    );
    await expect.poll(() => server.closedByClient).toBe(1);
    expect(server.requests).toBe(1);
  });

  it('endless reasoning nobody reads (deltas: false) and no maxTokens: fails past 8 MiB characters', async () => {
    const server = await serveEndless(SSE, sse({ reasoning_content: 'hmm '.repeat(1024) }));
    const reply = ask(server.baseURL, { deltas: false });
    await expect(reply).rejects.toThrow('more than 8,388,608 characters of text, reasoning and tool-call arguments, the most a reply may bring when the request sets no maxTokens');
    await expect.poll(() => server.closedByClient).toBe(1);
    expect(server.requests).toBe(1);
  });

  it('one tool call whose arguments never end counts too', async () => {
    const server = await serveEndless(SSE, (i) =>
      i === 0 ? sse({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'write', arguments: '{"text":"' } }] })() : sse({ tool_calls: [{ index: 0, function: { arguments: 'a'.repeat(4096) } }] })(),
    );
    await expect(ask(server.baseURL, {}, 1_000)).rejects.toThrow('streamed more than 1,048,576 characters');
    await expect.poll(() => server.closedByClient).toBe(1);
  });

  it('a JSON completion declared larger than the limit is refused before it is read', async () => {
    // 100 MiB announced, a few bytes sent, then nothing: reading it whole would wait for the rest.
    const server = await serveEndless({ 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) }, (i) => (i === 0 ? '{"choices":[' : undefined));
    await expect(ask(server.baseURL)).rejects.toThrow('model "m": the server answered with a JSON completion of more than 33,554,432 bytes, the most a reply may bring');
    await expect.poll(() => server.closedByClient).toBe(1);
    expect(server.requests).toBe(1);
  });

  it('a chunked JSON completion that never ends is given up past its limit (4 bytes a character)', async () => {
    const server = await serveEndless({ 'content-type': 'application/json' }, (i) => (i === 0 ? '{"choices":[{"message":{"content":"' : 'x'.repeat(65_536)));
    await expect(ask(server.baseURL, {}, 100)).rejects.toThrow('JSON completion of more than 4,194,304 bytes for a reply of at most 100 tokens (maxTokens)');
    await expect.poll(() => server.closedByClient).toBe(1);
  });

  it('a long honest reply passes: 1.5 MiB of text streamed without maxTokens, or with one that allows it; as JSON too', async () => {
    const text = 'a long and honest answer. '.repeat(60_000); // 1.56 M characters
    const fake = await FakeOpenAIServer.start({ replies: [{ text, chunkSize: 8_192 }, { text, chunkSize: 8_192 }, { text, ignoreStream: true }, { text, chunkSize: 8_192 }] });
    servers.push(fake);
    expect((await ask(fake.baseURL)).at(-1)).toMatchObject({ type: 'finish', text });
    expect((await ask(fake.baseURL, {}, 100_000)).at(-1)).toMatchObject({ type: 'finish', text });
    expect((await ask(fake.baseURL, {}, 100)).at(-1)).toMatchObject({ type: 'finish', text }); // JSON: 1.5 MiB is under its 4 MiB
    // the same stream for a reply of at most 100 tokens is a runaway
    await expect(ask(fake.baseURL, {}, 100)).rejects.toThrow('streamed more than 1,048,576 characters');
  });
});
