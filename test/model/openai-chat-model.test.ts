import { firstValueFrom, lastValueFrom, toArray, VirtualTimeScheduler } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRequest, ModelChunk, ModelFinish } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { outcomeOf } from '../support/collect.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

const HELLO: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };
/** Asks for a retry at once instead of the default back-off of ~0.5 s. */
const RETRY_NOW = { 'retry-after-ms': '0' };

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(async () => {
  await server.close();
});

function chunksOf(model: OpenAIChatModel, request: ChatRequest = HELLO): Promise<ModelChunk[]> {
  return lastValueFrom(model.stream(request).pipe(toArray()));
}

function finishOf(chunks: readonly ModelChunk[]): ModelFinish {
  const last = chunks.at(-1);
  expect(last?.type).toBe('finish');
  return last as ModelFinish;
}

async function modelErrorOf(model: OpenAIChatModel, request: ChatRequest = HELLO): Promise<{ error: ModelError; chunks: ModelChunk[] }> {
  const { values, error } = await outcomeOf(model.stream(request));
  expect(error).toBeInstanceOf(ModelError);
  return { error: error as ModelError, chunks: values };
}

describe('OpenAIChatModel streaming', () => {
  it('streams text deltas in order, then one finish with the whole text, usage from the last chunk and the finish reason', async () => {
    server.enqueue({ text: 'Hello, streaming world!', chunkSize: 5, usage: { prompt_tokens: 11, completion_tokens: 6, total_tokens: 17 } });
    const chunks = await chunksOf(openAIModelFor(server));
    expect(chunks.slice(0, -1)).toEqual([
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: ', str' },
      { type: 'text-delta', text: 'eamin' },
      { type: 'text-delta', text: 'g wor' },
      { type: 'text-delta', text: 'ld!' },
    ]);
    expect(finishOf(chunks)).toEqual({
      type: 'finish',
      text: 'Hello, streaming world!',
      toolCalls: [],
      usage: { promptTokens: 11, completionTokens: 6, totalTokens: 17 },
      finishReason: 'stop',
    });
  });

  // The fake server always splits arguments into several fragments (see its own tests).
  it('reassembles the fragments of several tool calls by index', async () => {
    server.enqueue({
      text: 'Let me look.',
      chunkSize: 3,
      toolCalls: [
        { id: 'call_read', name: 'read', arguments: { path: 'src/index.ts', limit: 20 } },
        { id: 'call_grep', name: 'grep', arguments: { pattern: 'ünïcødé "quoted"', glob: ['*.ts', '*.md'] } },
        { name: 'bash', arguments: '{"command": "ls -la"}' },
      ],
    });
    const chunks = await chunksOf(openAIModelFor(server));
    const finish = finishOf(chunks);
    expect(finish.text).toBe('Let me look.');
    expect(finish.finishReason).toBe('tool_calls');
    expect(finish.toolCalls).toEqual([
      { id: 'call_read', name: 'read', arguments: '{"path":"src/index.ts","limit":20}' },
      { id: 'call_grep', name: 'grep', arguments: '{"pattern":"ünïcødé \\"quoted\\"","glob":["*.ts","*.md"]}' },
      // The fake server names a call without an id `call_<request>_<position>`.
      { id: 'call_0_2', name: 'bash', arguments: '{"command": "ls -la"}' },
    ]);
    expect(chunks.filter((c) => c.type === 'text-delta').map((c) => (c as { text: string }).text).join('')).toBe('Let me look.');
  });

  it('reports reasoning_content as thinking-delta chunks before the text, and keeps it out of the final text', async () => {
    server.enqueue({ thinking: 'First I consider the question.', text: 'The answer.', chunkSize: 8 });
    const chunks = await chunksOf(openAIModelFor(server));
    const kinds = chunks.map((c) => c.type);
    expect(kinds.indexOf('text-delta')).toBeGreaterThan(kinds.lastIndexOf('thinking-delta'));
    const thinking = chunks.filter((c) => c.type === 'thinking-delta');
    expect(thinking.length).toBeGreaterThan(1);
    expect(thinking.map((c) => (c as { text: string }).text).join('')).toBe('First I consider the question.');
    expect(finishOf(chunks).text).toBe('The answer.');
  });

  it('with deltas: false emits only the finish, the same as a streamed one, and sends the same body', async () => {
    const reply = {
      thinking: 'Weighing it.',
      text: 'Hello, quiet world!',
      chunkSize: 4,
      toolCalls: [{ id: 'call_1', name: 'read', arguments: { path: 'a.ts' } }],
      usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 },
    };
    server.enqueue(reply);
    server.enqueue(reply);
    const model = openAIModelFor(server);
    const streamed = await chunksOf(model);
    const quiet = await chunksOf(model, { ...HELLO, deltas: false });
    expect(streamed.filter((c) => c.type !== 'finish').length).toBeGreaterThan(5);
    expect(quiet).toHaveLength(1);
    expect(finishOf(quiet)).toEqual(finishOf(streamed));
    expect(finishOf(quiet).text).toBe('Hello, quiet world!');
    expect(server.requests[1]?.body).toEqual(server.requests[0]?.body);
  });

  it('finishes without usage when the server sends none', async () => {
    server.enqueue({ text: 'no usage', usage: false });
    expect(finishOf(await chunksOf(openAIModelFor(server))).usage).toBeUndefined();
  });

  it('sends the model id, the messages, stream: true, stream_options.include_usage and the tools in the request body', async () => {
    const model = new OpenAIChatModel({
      model: 'gpt-test',
      baseURL: server.baseURL,
      apiKey: 'sk-body',
      maxRetries: 0,
      extraBody: { temperature: 0.25 },
    });
    const parameters = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const request: ChatRequest = {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Read it' },
      ],
      tools: [{ name: 'read', description: 'Reads a file.', parameters }],
    };
    await chunksOf(model, request);
    const { body, headers } = server.requests[0]!;
    expect(body.model).toBe('gpt-test');
    expect(body.messages).toEqual(request.messages);
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'read', description: 'Reads a file.', parameters } }]);
    expect(body['temperature']).toBe(0.25);
    expect(headers['authorization']).toBe('Bearer sk-body');
    expect(model.id).toBe('gpt-test');
  });

  it('sends no tools field when the request has no tools', async () => {
    await chunksOf(openAIModelFor(server), { messages: HELLO.messages, tools: [] });
    expect(server.requests[0]?.body).not.toHaveProperty('tools');
  });

  it('is cold: nothing is sent before subscribing, and each subscription sends its own request', async () => {
    const model = openAIModelFor(server);
    const stream$ = model.stream(HELLO);
    expect(server.requests).toHaveLength(0);
    await lastValueFrom(stream$);
    await lastValueFrom(stream$);
    expect(server.requests).toHaveLength(2);
  });
});

describe('OpenAIChatModel failures', () => {
  it('retries an HTTP 500 up to maxRetries times and then succeeds', async () => {
    server.enqueue({ status: 500, headers: RETRY_NOW }, { status: 500, headers: RETRY_NOW }, { text: 'third time lucky' });
    const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 2 });
    expect(finishOf(await chunksOf(model)).text).toBe('third time lucky');
    expect(server.requests.map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it('fails with a ModelError carrying status 500 when the retries are used up', async () => {
    server.setHandler(() => ({ status: 500, headers: RETRY_NOW, errorMessage: 'the GPU caught fire' }));
    const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 2 });
    const { error, chunks } = await modelErrorOf(model);
    expect(error.name).toBe('ModelError');
    expect(error.status).toBe(500);
    expect(error.message).toContain('model "m"');
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain('the GPU caught fire');
    expect(chunks).toEqual([]);
    expect(server.requests).toHaveLength(3);
  });

  it('waits as long as a 429 response\'s retry-after header says, then retries (virtual time: the wait is read, not timed)', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '0.06' } }, { text: 'rate limit over' });
    const scheduler = new VirtualTimeScheduler();
    const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 1, scheduler });
    const chunks = chunksOf(model);
    await expect.poll(() => scheduler.actions.length, { timeout: 10_000 }).toBeGreaterThan(0);
    // The one wait scheduled is the 60 ms the server asked for; no retry before it passed.
    expect(scheduler.actions.map((action) => action.delay)).toEqual([60]);
    expect(server.requests).toHaveLength(1);
    scheduler.flush();
    expect(finishOf(await chunks).text).toBe('rate limit over');
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it('reports a 429 without retries left as a ModelError with status 429', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '0' } });
    const { error } = await modelErrorOf(openAIModelFor(server, { maxRetries: 0 }));
    expect(error.status).toBe(429);
    expect(error.message).toContain('HTTP 429');
  });

  it('does not retry a 400, and passes the server\'s message on', async () => {
    server.enqueue({ status: 400, errorMessage: "Invalid 'messages': empty" });
    const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 2 });
    const { error } = await modelErrorOf(model);
    expect(error.status).toBe(400);
    expect(error.message).toContain("Invalid 'messages': empty");
    expect(server.requests).toHaveLength(1);
  });

  it('turns a connection reset mid-stream into a ModelError that says the response broke off', async () => {
    server.enqueue({ text: 'this answer will be cut off in the middle', chunkSize: 4, resetAfterChunks: 3 });
    const { error, chunks } = await modelErrorOf(openAIModelFor(server));
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/^model "fake-model": the response could not be read \(.*other side closed\)$/);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => c.type === 'text-delta')).toBe(true);
  });

  it('with deltas: false a stream cut short, broken off or carrying bad JSON still fails with the same ModelError, and nothing but the error comes', async () => {
    const model = openAIModelFor(server);
    const cut = { text: 'cut before its end', chunkSize: 4 };
    for (const reply of [{ ...cut, resetAfterChunks: 3 }, { ...cut, malformedChunk: true }]) {
      server.enqueue(reply);
      server.enqueue(reply);
      const streamed = await modelErrorOf(model);
      const quiet = await modelErrorOf(model, { ...HELLO, deltas: false });
      expect(quiet.error.message).toBe(streamed.error.message);
      expect(quiet.chunks).toEqual([]);
    }
  });

  it('turns a malformed SSE chunk into a ModelError that says the JSON could not be parsed', async () => {
    server.enqueue({ text: 'a perfectly fine answer, until it is not', malformedChunk: true });
    const { error, chunks } = await modelErrorOf(openAIModelFor(server));
    expect(error.message).toMatch(/^model "fake-model": the response could not be read \(.*JSON.*\)$/);
    expect(chunks.some((c) => c.type === 'finish')).toBe(false);
  });

  it('names the refused connection when nothing listens at the base URL', async () => {
    const model = openAIModelFor(server);
    await server.close();
    const { error } = await modelErrorOf(model);
    expect(error.message).toMatch(/^model "fake-model": connection failed \(.*ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
  });

  it('gives up after timeoutMs when the server does not answer', async () => {
    server.enqueue({ hang: true });
    const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, timeoutMs: 100 });
    const { error } = await modelErrorOf(model);
    expect(error.message).toBe('model "m": the request timed out');
    expect((await server.waitForClosed(0)).aborted).toBe(true);
  });
});

describe('OpenAIChatModel cancellation', () => {
  it('aborts the HTTP request when unsubscribed mid-stream, and emits nothing more', async () => {
    server.enqueue({ text: 'a long answer streamed slowly, one piece at a time', chunkSize: 2, chunkDelayMs: 200 });
    const model = openAIModelFor(server);
    const seen: ModelChunk[] = [];
    let ended = false;
    await new Promise<void>((resolve) => {
      const subscription = model.stream(HELLO).subscribe({
        next: (chunk) => {
          seen.push(chunk);
          subscription.unsubscribe();
          resolve();
        },
        error: () => (ended = true),
        complete: () => (ended = true),
      });
    });
    const request = await server.waitForClosed(0);
    expect(request.aborted).toBe(true);
    expect(request.completed).toBe(false);
    expect(seen).toEqual([{ type: 'text-delta', text: 'a ' }]);
    expect(ended).toBe(false);
  });
});

describe('OpenAIChatModel configuration', () => {
  const saved = { baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY };
  afterEach(() => {
    restore('OPENAI_BASE_URL', saved.baseURL);
    restore('OPENAI_API_KEY', saved.apiKey);
  });

  it('falls back to OPENAI_BASE_URL and OPENAI_API_KEY', async () => {
    process.env.OPENAI_BASE_URL = server.baseURL;
    process.env.OPENAI_API_KEY = 'sk-from-env';
    const model = new OpenAIChatModel({ model: 'env-model', maxRetries: 0 });
    expect(finishOf(await chunksOf(model)).text).toBe('You said: hello');
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-from-env');
  });

  it('prefers explicit baseURL and apiKey to the environment', async () => {
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    process.env.OPENAI_API_KEY = 'sk-from-env';
    const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'sk-explicit', maxRetries: 0 });
    await firstValueFrom(model.stream(HELLO));
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-explicit');
  });

  it('rejects a missing or blank model id with a message saying what to pass', () => {
    for (const bad of [undefined, '', '   ', 42]) {
      expect(() => new OpenAIChatModel({ model: bad as string, apiKey: 'k' })).toThrow(
        /OpenAIChatModel: `model` must be a non-empty string/,
      );
    }
    expect(() => new OpenAIChatModel(undefined as unknown as { model: string })).toThrow(TypeError);
  });

  it('rejects a maxRetries, timeoutMs or maxRetryDelayMs that is not a whole number in range, naming it', () => {
    const bad = [
      [{ maxRetries: -1 }, /`maxRetries` must be an integer of at least 0, got -1/],
      [{ maxRetries: 1.5 }, /`maxRetries` must be an integer/],
      [{ timeoutMs: 0 }, /`timeoutMs` must be an integer of at least 1, got 0/],
      [{ timeoutMs: Number.NaN }, /`timeoutMs` must be an integer/],
      [{ maxRetryDelayMs: -5 }, /`maxRetryDelayMs` must be an integer of at least 0/],
    ] as const;
    for (const [options, message] of bad) {
      expect(() => new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', ...options })).toThrow(message);
    }
  });

  it('needs no API key for a server of its own (baseURL): it sends no Authorization header', async () => {
    delete process.env.OPENAI_API_KEY;
    const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, maxRetries: 0 });
    expect(finishOf(await chunksOf(model)).text).toBe('You said: hello');
    expect(server.requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('rejects a missing API key when there is no baseURL either, saying what to pass', () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    expect(() => new OpenAIChatModel({ model: 'm' })).toThrow(
      'OpenAIChatModel: no API key: pass `apiKey` or set OPENAI_API_KEY (a local server needs none: pass its `baseURL` instead)',
    );
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
