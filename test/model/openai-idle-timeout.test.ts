import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRequest, ModelFinish } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { outcomeOf } from '../support/collect.js';
import { FakeOpenAIServer, type FakeReply } from '../support/fake-openai-server.js';

// `timeoutMs` bounds the wait for the headers and every silence after them, through the real
// client against the fake server. The margins are wide (a 200 ms limit against 25 ms or 1 s
// gaps) so a loaded machine cannot flip a result.

const HELLO: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };
const LIMIT_MS = 200;

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(async () => {
  await server.close();
});

function model(): OpenAIChatModel {
  return new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, timeoutMs: LIMIT_MS });
}

async function failureOf(reply: FakeReply): Promise<{ error: ModelError; types: string[]; elapsedMs: number }> {
  server.enqueue(reply);
  const started = Date.now();
  const { values, error } = await outcomeOf(model().stream(HELLO));
  expect(error).toBeInstanceOf(ModelError);
  return { error: error as ModelError, types: values.map((c) => c.type), elapsedMs: Date.now() - started };
}

describe('OpenAIChatModel: timeoutMs is also an idle timeout', () => {
  it('a stream that goes silent right after its headers ends with a ModelError, and the request is aborted', async () => {
    const { error, types, elapsedMs } = await failureOf({ text: 'never sent', stallAfterChunks: 0 });
    expect(error.message).toBe('model "m": the server sent nothing for 200 ms (timeoutMs) after 0 chunks: the stream was abandoned');
    expect(error.status).toBeUndefined();
    expect(types).toEqual([]);
    expect(elapsedMs).toBeGreaterThanOrEqual(LIMIT_MS);
    expect(elapsedMs).toBeLessThan(5_000);
    expect(await server.waitForClosed(0)).toMatchObject({ aborted: true, completed: false });
  });

  it('a stream that goes silent midway: the deltas that came, then the error (never a finish)', async () => {
    const { error, types } = await failureOf({ text: 'abcdefghijklmnop', chunkSize: 4, stallAfterChunks: 2 });
    expect(error.message).toContain('after 2 chunks');
    expect(types).toEqual(['text-delta', 'text-delta']);
  });

  it('chunks that trickle slower than the limit time out', async () => {
    const { error, types } = await failureOf({ text: 'slow slow slow', chunkSize: 5, chunkDelayMs: 1_000 });
    expect(error.message).toContain('sent nothing for 200 ms');
    expect(types).toEqual(['text-delta']);
  });

  it('chunks that trickle faster than the limit never time out, though the whole stream takes longer than timeoutMs', async () => {
    server.enqueue({ text: 'x'.repeat(24), chunkSize: 1, chunkDelayMs: 25 });
    const started = Date.now();
    const chunks = await lastValueFrom(model().stream(HELLO).pipe(toArray()));
    expect(Date.now() - started).toBeGreaterThan(LIMIT_MS * 2);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', text: 'x'.repeat(24), finishReason: 'stop' } satisfies Partial<ModelFinish>);
  });

  it('a server that keeps the connection open after [DONE]: the answer still finishes normally', async () => {
    server.enqueue({ text: 'done, then silent', stallAfterChunks: 99 });
    const chunks = await lastValueFrom(model().stream(HELLO).pipe(toArray()));
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', text: 'done, then silent', finishReason: 'stop' });
  });

  it('leaves no timer or socket behind after a normal stream, an idle timeout, or an unsubscribe', async () => {
    const baseline = resourceCounts();
    server.enqueue({ text: 'fine' }, { text: 'stalls', stallAfterChunks: 1 }, { text: 'slow', chunkSize: 1, chunkDelayMs: 1_000 });
    await lastValueFrom(model().stream(HELLO));
    await outcomeOf(model().stream(HELLO));
    await new Promise<void>((resolve) => {
      const subscription = model()
        .stream(HELLO)
        .subscribe(() => {
          subscription.unsubscribe();
          resolve();
        });
    });
    await server.waitForClosed(2);
    expect(await leakedResources(baseline)).toEqual({});
  });
});
