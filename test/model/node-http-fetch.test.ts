import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import OpenAI from 'openai';
import { lastValueFrom, tap, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ModelChunk, ModelFinish } from '../../src/model/chat-model.js';
import { contextExceeded } from '../../src/model/context-exceeded.js';
import { ModelError } from '../../src/model/model-error.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { outcomeOf } from '../support/collect.js';
import { createGate } from '../support/deferred.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { agentSocketsFor, HELLO, modelAt, sseChunk, sseReply } from './node-http-support.js';

// rxharness's own client sends model requests over node:http (src/model/node-http-fetch.ts),
// against real servers here: what fetch did for us (aborts, decompression, error bodies) must
// still happen.

const http = httpServerPerTest();
const SSE = { 'content-type': 'text/event-stream' };

function finishOf(chunks: readonly ModelChunk[]): ModelFinish {
  const last = chunks.at(-1);
  expect(last?.type).toBe('finish');
  return last as ModelFinish;
}

async function errorOf(model: OpenAIChatModel): Promise<ModelError> {
  const { error } = await outcomeOf(model.stream(HELLO));
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

/** Resolves when the client has gone away from `res` before it was ended. */
function clientGone(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => res.once('close', () => resolve()));
}

describe('node:http transport: aborts', () => {
  it('an unsubscribe mid-stream destroys the request and its socket: the server sees the client go, no socket stays in the agent or the process', async () => {
    let gone: Promise<void> | undefined;
    const url = await http.serve((_req, res) => {
      gone = clientGone(res);
      res.writeHead(200, SSE);
      res.write(sseChunk('a'));
      res.write(sseChunk('b')); // and never more
    });
    const baseline = resourceCounts();
    const firstDelta = createGate();
    const subscription = modelAt(url).stream(HELLO).subscribe({ next: (chunk) => chunk.type === 'text-delta' && firstDelta.open() });
    await firstDelta.promise;
    subscription.unsubscribe();
    await gone;
    expect(await leakedResources(baseline)).toEqual({});
    expect(agentSocketsFor(url)).toBe(0);
  });

  it('an unsubscribe before the headers destroys the request too', async () => {
    const asked = createGate();
    let gone: Promise<void> | undefined;
    const url = await http.serve((_req, res) => {
      gone = clientGone(res);
      asked.open(); // and no answer
    });
    const baseline = resourceCounts();
    const subscription = modelAt(url).stream(HELLO).subscribe({ error: () => undefined });
    await asked.promise;
    subscription.unsubscribe();
    await gone;
    expect(await leakedResources(baseline)).toEqual({});
    expect(agentSocketsFor(url)).toBe(0);
  });

  it('a server that never answers: the request times out after timeoutMs with the words users know, and is closed', async () => {
    let gone: Promise<void> | undefined;
    const url = await http.serve((_req, res) => void (gone = clientGone(res)));
    const baseline = resourceCounts();
    const error = await errorOf(modelAt(url, { timeoutMs: 200 }));
    expect(error.message).toBe('model "m": the request timed out');
    await gone;
    expect(await leakedResources(baseline)).toEqual({});
    expect(agentSocketsFor(url)).toBe(0);
  });

  it('a stream read to its end leaves its socket idle in the agent, reused by the next request', async () => {
    const sockets = new Set<unknown>();
    const url = await http.serve((req, res) => {
      sockets.add(req.socket);
      res.writeHead(200, SSE).end(sseReply(['hi']));
    });
    const model = modelAt(url);
    for (let i = 0; i < 3; i++) expect(finishOf(await lastValueFrom(model.stream(HELLO).pipe(toArray()))).text).toBe('hi');
    expect(sockets.size).toBe(1);
  });
});

/** The request's JSON body. */
async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = '';
  for await (const part of req) raw += String(part);
  return JSON.parse(raw) as Record<string, unknown>;
}

describe('node:http transport: bodies', () => {
  const encoders = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, br: zlib.brotliCompressSync };

  it('asks for gzip, deflate and br, and decodes each', async () => {
    const accepted: string[] = [];
    const url = await http.serve((req, res) => {
      accepted.push(String(req.headers['accept-encoding']));
      void bodyOf(req).then(({ want }) => {
        const encode = encoders[want as keyof typeof encoders];
        res.writeHead(200, { ...SSE, 'content-encoding': String(want) }).end(encode(sseReply(['com', 'pressed ', String(want)])));
      });
    });
    for (const want of Object.keys(encoders)) {
      const chunks = await lastValueFrom(modelAt(url, { extraBody: { want } }).stream(HELLO).pipe(toArray()));
      expect(finishOf(chunks).text).toBe(`compressed ${want}`);
    }
    expect(accepted).toEqual(['gzip, deflate, br', 'gzip, deflate, br', 'gzip, deflate, br']);
  });

  it('decodes a gzip stream as it arrives: the first delta comes before the server sends the rest', async () => {
    const firstDelta = createGate();
    const url = await http.serve((_req, res) => {
      res.writeHead(200, { ...SSE, 'content-encoding': 'gzip' });
      const gzip = zlib.createGzip();
      gzip.pipe(res);
      gzip.write(sseChunk('first, '));
      gzip.flush();
      // Held until the client has read the first delta: a decoder that waited for the end would never see it.
      void firstDelta.promise.then(() => gzip.end(sseReply(['then the rest'])));
    });
    const chunks = await lastValueFrom(modelAt(url).stream(HELLO).pipe(tap((chunk) => chunk.type === 'text-delta' && firstDelta.open()), toArray()));
    expect(finishOf(chunks).text).toBe('first, then the rest');
  });

  it('reads a stream sent with a content-length as well as a chunked one, and a whole JSON completion', async () => {
    const completion = { choices: [{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }] };
    const url = await http.serve((req, res) => {
      void bodyOf(req).then(({ want }) => {
        const body = want === 'json' ? JSON.stringify(completion) : sseReply(['sized']);
        const type = want === 'json' ? 'application/json' : 'text/event-stream';
        res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
      });
    });
    expect(finishOf(await lastValueFrom(modelAt(url, { extraBody: { want: 'sse' } }).stream(HELLO).pipe(toArray()))).text).toBe('sized');
    expect(finishOf(await lastValueFrom(modelAt(url, { extraBody: { want: 'json' } }).stream(HELLO).pipe(toArray()))).text).toBe('whole');
  });
});

describe('node:http transport: error answers reach the client\'s error classes', () => {
  const answers: Record<string, (res: ServerResponse) => void> = {
    unauthorized: (res) => res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } })),
    'gzip-500': (res) => res.writeHead(500, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(zlib.gzipSync(JSON.stringify({ error: { message: 'upstream exploded' } }))),
    'too-long': (res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'the request exceeds the available context size (4096 tokens)' } })),
    moved: (res) => res.writeHead(307, { location: 'http://127.0.0.1:9/v1/chat/completions' }).end(),
  };
  let asked = 0;
  const serve = (): Promise<string> =>
    http.serve((req, res) => {
      asked++;
      void bodyOf(req).then(({ want }) => answers[String(want)]!(res));
    });

  it('401, a gzip-compressed 500, a context-exceeded 400: the status and the server\'s words', async () => {
    const url = await serve();
    const unauthorized = await errorOf(modelAt(url, { extraBody: { want: 'unauthorized' } }));
    expect(unauthorized).toMatchObject({ status: 401, message: 'model "m": HTTP 401: Incorrect API key provided' });
    const failed = await errorOf(modelAt(url, { extraBody: { want: 'gzip-500' } }));
    expect(failed).toMatchObject({ status: 500, message: 'model "m": HTTP 500: upstream exploded' });
    const tooLong = await errorOf(modelAt(url, { extraBody: { want: 'too-long' } }));
    expect(contextExceeded(tooLong)).toEqual({ window: 4096 });
  });

  it('a 429 with Retry-After is retried as the server asks, then the answer is read', async () => {
    let calls = 0;
    const url = await http.serve((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '0' }).end(JSON.stringify({ error: { message: 'slow down' } }));
      else res.writeHead(200, SSE).end(sseReply(['after the wait']));
    });
    const chunks = await lastValueFrom(modelAt(url, { maxRetries: 1 }).stream(HELLO).pipe(toArray()));
    expect(finishOf(chunks).text).toBe('after the wait');
    expect(calls).toBe(2);
  });

  it('a redirect is not followed: the error names the status and where it points, and nothing else is asked', async () => {
    const url = await serve();
    asked = 0;
    const error = await errorOf(modelAt(url, { extraBody: { want: 'moved' } }));
    expect(error.status).toBe(307);
    expect(error.message).toMatch(/^model "m": HTTP 307: .*the server redirects to http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions; model requests do not follow redirects: set `baseURL`/);
    expect(asked).toBe(1);
  });
});

describe('node:http transport: only for rxharness\'s own client', () => {
  it('a client the user passes keeps its own fetch (and its web stream is read as before)', async () => {
    const url = await http.serve((_req, res) => res.writeHead(200, SSE).end(sseReply(['through ', 'your fetch'])));
    let calls = 0;
    const own: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'k', maxRetries: 0, fetch: own });
    const chunks = await lastValueFrom(new OpenAIChatModel({ model: 'm', client }).stream(HELLO).pipe(toArray()));
    expect(finishOf(chunks).text).toBe('through your fetch');
    expect(calls).toBe(1);
  });
});
