import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { RequestCancel } from '../../src/model/request-cancel.js';
import { createGate } from '../support/deferred.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { agentSocketsFor, HELLO, modelAt, sseReply } from './node-http-support.js';

// rxharness's own requests are cancelled without an AbortSignal of their own (RequestCancel):
// a cancel must still stop the request at every stage, never reach a later request, and a
// client the user passes must still get a real signal.

const http = httpServerPerTest();

describe('RequestCancel', () => {
  it("stops the transport's request once, and not after the transport forgot it (a late cancel cannot reach a reused socket)", () => {
    const stopped: string[] = [];
    const cancel = new RequestCancel();
    const forget = cancel.onAbort(() => stopped.push('first'));
    forget();
    cancel.onAbort(() => stopped.push('second'));
    cancel.abort();
    cancel.abort();
    expect(stopped).toEqual(['second']);
    expect(cancel.aborted).toBe(true);
  });

  it('a signal made before the cancel aborts with it; one made after it is aborted already', () => {
    const before = new RequestCancel();
    const signal = before.signal;
    expect(signal.aborted).toBe(false);
    before.abort();
    expect(signal.aborted).toBe(true);
    const after = new RequestCancel();
    after.abort();
    expect(after.signal.aborted).toBe(true);
  });
});

describe('cancelling a request of the node:http transport', () => {
  it('an unsubscribe before the request is sent: nothing reaches the server, no socket is opened', async () => {
    const asked: string[] = [];
    const url = await http.serve((req, res) => {
      asked.push(String(req.headers['x-stainless-retry-count']));
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sseReply(['hi']));
    });
    const model = modelAt(url);
    model.stream(HELLO).subscribe({ error: () => undefined }).unsubscribe();
    // A request sent afterwards, read to its end: the one before it, had it gone out, would have been asked first.
    await new Promise<void>((done, fail) => model.stream(HELLO).subscribe({ error: fail, complete: done }));
    expect(asked).toEqual(['0']);
    expect(agentSocketsFor(url)).toBe(1); // the second request's, kept alive: no other was opened
  });

  it("a client the user passes gets a real signal, which an unsubscribe aborts (its fetch's request stops)", async () => {
    const asked = createGate();
    const url = await http.serve(() => asked.open()); // and no answer
    const signals: AbortSignal[] = [];
    const own: typeof fetch = (input, init) => {
      if (init?.signal) signals.push(init.signal);
      return fetch(input, init);
    };
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'k', maxRetries: 0, fetch: own });
    const subscription = new OpenAIChatModel({ model: 'm', client }).stream(HELLO).subscribe({ error: () => undefined });
    await asked.promise;
    expect(signals.map((s) => s.aborted)).toEqual([false]);
    subscription.unsubscribe();
    expect(signals.map((s) => s.aborted)).toEqual([true]);
  });

  it('a body read to its end, then an unsubscribe: the socket stays idle in the agent for the next request', async () => {
    const url = await http.serve((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(sseReply(['hi']))));
    const model = modelAt(url);
    let ended = false;
    const subscription = model.stream(HELLO).subscribe({ next: (chunk) => void (chunk.type === 'finish' && (ended = true)) });
    await new Promise<void>((done) => {
      const check = (): void => (ended ? done() : void setImmediate(check));
      check();
    });
    subscription.unsubscribe();
    await new Promise((resolve) => setImmediate(resolve));
    expect(agentSocketsFor(url)).toBe(1);
  });
});
