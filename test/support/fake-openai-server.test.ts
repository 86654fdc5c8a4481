import { connect } from 'node:net';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAIServer, FakeServerWaitError } from './fake-openai-server.js';
import { clientFor, collect, HELLO, reasoningOf } from './fake-openai-client.js';

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(async () => {
  await server.close();
});

describe('replies', () => {
  it('answers a non-streaming request with a chat.completion the client parses', async () => {
    server.enqueue({ text: 'Hi there', usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
    const tools = [{ type: 'function' as const, function: { name: 'read', parameters: { type: 'object' } } }];
    const completion = await clientFor(server).chat.completions.create({ ...HELLO, tools });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('fake-model');
    expect(completion.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'Hi there' });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
    const [request] = server.requests;
    expect(request).toMatchObject({ index: 0, path: '/v1/chat/completions', stream: false, completed: true, aborted: false, status: 200 });
    expect(request?.body.messages).toEqual(HELLO.messages);
    expect(request?.body.tools?.[0]?.function?.name).toBe('read');
    expect(request?.headers['authorization']).toBe('Bearer test');
  });

  it('streams text in chunkSize deltas, ends with [DONE], and puts usage in a last chunk with no choices', async () => {
    server.enqueue({ text: 'abcdefghij', chunkSize: 4, usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } });
    const stream = await clientFor(server).chat.completions.create({
      ...HELLO,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collect(stream);
    const contents = chunks.map((chunk) => chunk.choices[0]?.delta.content).filter((text) => text);
    expect(contents).toEqual(['abcd', 'efgh', 'ij']);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
    expect(server.requests[0]).toMatchObject({ stream: true, completed: true });
    expect(server.requests[0]?.body.stream_options).toEqual({ include_usage: true });
  });

  it('sends no usage chunk without include_usage, or when the reply says usage: false', async () => {
    server.enqueue({ text: 'one' }, { text: 'two', usage: false });
    const client = clientFor(server);
    const plain = await collect(await client.chat.completions.create({ ...HELLO, stream: true }));
    expect(plain.some((chunk) => chunk.usage)).toBe(false);
    const withoutUsage = await collect(
      await client.chat.completions.create({ ...HELLO, stream: true, stream_options: { include_usage: true } }),
    );
    expect(withoutUsage.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(withoutUsage.some((chunk) => chunk.usage)).toBe(false);
  });

  it('streams tool calls like OpenAI: a naming fragment, then argument fragments by index', async () => {
    server.enqueue({
      toolCalls: [
        { id: 'call_a', name: 'read', arguments: { path: 'src/index.ts', limit: 20 } },
        { name: 'bash', arguments: '{"command": "ls' },
      ],
    });
    const chunks = await collect(await clientFor(server).chat.completions.create({ ...HELLO, stream: true }));
    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    const named = fragments.filter((fragment) => fragment.id !== undefined);
    expect(named).toEqual([
      { index: 0, id: 'call_a', type: 'function', function: { name: 'read', arguments: '' } },
      { index: 1, id: 'call_0_1', type: 'function', function: { name: 'bash', arguments: '' } },
    ]);
    const argumentsOf = (index: number) => fragments.filter((f) => f.index === index && f.id === undefined);
    for (const index of [0, 1]) {
      expect(argumentsOf(index).length).toBeGreaterThan(1);
      expect(argumentsOf(index).every((f) => Object.keys(f).sort().join() === 'function,index')).toBe(true);
    }
    expect(argumentsOf(0).map((f) => f.function?.arguments).join('')).toBe('{"path":"src/index.ts","limit":20}');
    expect(argumentsOf(1).map((f) => f.function?.arguments).join('')).toBe('{"command": "ls');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it("reassembles into the client's finalChatCompletion", async () => {
    server.enqueue({
      text: 'Let me look.',
      toolCalls: [
        { name: 'glob', arguments: { pattern: '**/*.ts' } },
        { name: 'grep', arguments: { pattern: 'TODO', include: '*.md' } },
      ],
    });
    const stream = clientFor(server).chat.completions.stream({ ...HELLO, stream_options: { include_usage: true } });
    const completion = await stream.finalChatCompletion();
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe('Let me look.');
    expect(message?.tool_calls).toEqual([
      { id: 'call_0_0', type: 'function', function: { name: 'glob', arguments: '{"pattern":"**/*.ts"}' } },
      { id: 'call_0_1', type: 'function', function: { name: 'grep', arguments: '{"pattern":"TODO","include":"*.md"}' } },
    ]);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('streams thinking as reasoning_content before the text', async () => {
    server.enqueue({ thinking: 'The user greets me.', text: 'Hello!', chunkSize: 5 });
    const chunks = await collect(await clientFor(server).chat.completions.create({ ...HELLO, stream: true }));
    const reasoning = chunks.map(reasoningOf).filter((text) => text !== undefined);
    expect(reasoning.join('')).toBe('The user greets me.');
    expect(reasoning.length).toBeGreaterThan(1);
    const firstText = chunks.findIndex((chunk) => chunk.choices[0]?.delta.content);
    const lastThinking = chunks.findLastIndex((chunk) => reasoningOf(chunk) !== undefined);
    expect(lastThinking).toBeLessThan(firstText);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello!');
  });

  it('uses queued replies first, then the handler, then echoes the last user message', async () => {
    await server.close();
    server = await FakeOpenAIServer.start({ replies: [{ text: 'first' }] });
    server.enqueue({ text: 'second' });
    const client = clientFor(server);
    const ask = async () => (await client.chat.completions.create(HELLO)).choices[0]?.message.content;
    expect(await ask()).toBe('first');
    expect(await ask()).toBe('second');
    expect(await ask()).toBe('You said: hello');
    server.setHandler((request) => ({ text: `handled #${request.index}` }));
    expect(await ask()).toBe('handled #3');
    expect(server.requests[3]?.reply).toEqual({ text: 'handled #3' });
  });
});

describe('errors and retries', () => {
  it('answers a status with an OpenAI error body, and records each retry as its own request', async () => {
    server.enqueue({ status: 500, errorMessage: 'overloaded', headers: { 'retry-after-ms': '0' } }, { text: 'recovered' });
    const completion = await clientFor(server, 2).chat.completions.create(HELLO);
    expect(completion.choices[0]?.message.content).toBe('recovered');
    expect(server.requests.map((request) => request.status)).toEqual([500, 200]);
  });

  it('honours retry-after: 0 on a 429', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '0' } }, { text: 'ok after 429' });
    const completion = await clientFor(server, 1).chat.completions.create(HELLO);
    expect(completion.choices[0]?.message.content).toBe('ok after 429');
    expect(server.requests).toHaveLength(2);
  });

  it('gives the client a typed error with the message, type and code', async () => {
    server.enqueue({ status: 429, errorMessage: 'slow down' });
    const error = await clientFor(server).chat.completions.create(HELLO).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, type: 'requests', code: 'rate_limit_exceeded' });
    expect((error as Error).message).toContain('slow down');
  });

  it('turns a thrown handler into a 500 the client does not retry, and keeps serving', async () => {
    server.setHandler(() => {
      throw new Error('scenario bug');
    });
    const client = clientFor(server, 2);
    const error = await client.chat.completions.create(HELLO).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as Error).message).toContain('fake handler failed: scenario bug');
    expect(server.requests).toHaveLength(1);
    server.setHandler(async () => ({ text: 'fine again' }));
    expect((await client.chat.completions.create(HELLO)).choices[0]?.message.content).toBe('fine again');
  });

  it('answers unknown paths with 404 and bad bodies with 400, as JSON errors', async () => {
    const post = (path: string, body: string) =>
      fetch(`${server.baseURL}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const notFound = await post('/embeddings', '{}');
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ error: { message: 'Invalid URL (POST /v1/embeddings)' } });
    const badJson = await post('/chat/completions', '{"model": ');
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('not valid JSON') } });
    const noModel = await post('/chat/completions', '{"messages": []}');
    expect(((await noModel.json()) as { error: { message: string } }).error.message).toBe('You must provide a model parameter.');
    const noMessages = await post('/chat/completions', '{"model": "m"}');
    expect(((await noMessages.json()) as { error: { message: string } }).error.message).toBe("Missing required parameter: 'messages'.");
    expect(server.requests.map((request) => request.status)).toEqual([404, 400, 400, 400]);
    expect(server.requests[1]).toMatchObject({ rawBody: '{"model": ', body: {} });
  });
});

describe('broken connections', () => {
  it('resets the connection mid-stream: the client errors and the request is recorded aborted', async () => {
    server.enqueue({ text: 'x'.repeat(100), chunkSize: 10, resetAfterChunks: 3 });
    const stream = await clientFor(server).chat.completions.create({ ...HELLO, stream: true });
    const seen: string[] = [];
    const failure = (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
    })();
    await expect(failure).rejects.toThrow();
    expect(seen.length).toBeLessThanOrEqual(3);
    expect(await server.waitForClosed(0)).toMatchObject({ aborted: true, completed: false });
  });

  it('sends a malformed data line mid-stream: the client fails to parse it', async () => {
    server.enqueue({ text: 'some text that streams in pieces', chunkSize: 4, malformedChunk: true });
    const stream = await clientFor(server).chat.completions.create({ ...HELLO, stream: true });
    await expect(collect(stream)).rejects.toThrow(SyntaxError);
  });

  it('sends a broken JSON body to a non-streaming request when malformedChunk is set', async () => {
    server.enqueue({ text: 'hi', malformedChunk: true });
    await expect(clientFor(server).chat.completions.create(HELLO)).rejects.toThrow();
  });

  it('records a hanging request aborted when the client aborts it', async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const pending = clientFor(server).chat.completions.create(HELLO, { signal: controller.signal });
    await server.waitForRequests(1);
    expect(server.inFlight).toBe(1);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    const record = await server.waitForClosed(0);
    expect(record).toMatchObject({ aborted: true, completed: false });
    expect(record.endedAt).toBeGreaterThanOrEqual(record.startedAt);
    expect(server.inFlight).toBe(0);
  });

  it('stops writing and clears its timers when the client leaves a slow stream early', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    server.enqueue({ text: 'y'.repeat(64), chunkSize: 1, chunkDelayMs: 1_000 });
    const stream = await clientFor(server).chat.completions.create({ ...HELLO, stream: true });
    const baseline = timers();
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) break;
    expect(await server.waitForClosed(0)).toMatchObject({ aborted: true, completed: false });
    expect(timers()).toBeLessThan(baseline);
  });

  it('counts requests in flight and the peak', async () => {
    server.setHandler(() => ({ hang: true }));
    const controller = new AbortController();
    const client = clientFor(server);
    const pending = [1, 2, 3].map(() => client.chat.completions.create(HELLO, { signal: controller.signal }).catch(() => 'aborted'));
    await server.waitForRequests(3);
    expect([server.inFlight, server.peakInFlight]).toEqual([3, 3]);
    controller.abort();
    expect(await Promise.all(pending)).toEqual(['aborted', 'aborted', 'aborted']);
    await Promise.all([0, 1, 2].map((index) => server.waitForClosed(index)));
    expect([server.inFlight, server.peakInFlight]).toEqual([0, 3]);
    server.resetPeak();
    expect(server.peakInFlight).toBe(0);
  });
});

describe('waiting and closing', () => {
  it('rejects a wait that times out with a message saying what is missing', async () => {
    await expect(server.waitForRequests(2, 10)).rejects.toThrow(
      new FakeServerWaitError('expected 2 request(s) at the fake OpenAI server, got 0 after 10 ms'),
    );
    await expect(server.waitForClosed(0, 10)).rejects.toThrow(/request #0 .* did not end/);
  });

  it('closes every connection, records open requests aborted, and stops listening', async () => {
    server.enqueue({ hang: true });
    const port = Number(new URL(server.baseURL).port);
    const pending = clientFor(server).chat.completions.create(HELLO);
    await server.waitForRequests(1);
    const waiting = expect(server.waitForRequests(5)).rejects.toThrow('the fake OpenAI server was closed');
    await server.close();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
    await waiting;
    expect(server.requests[0]).toMatchObject({ aborted: true, completed: false });
    expect(server.inFlight).toBe(0);
    expect(server.listening).toBe(false);
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => socket.destroy() && resolve('connected'));
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    await server.close(); // idempotent
  });
});
