import { lastValueFrom, tap, toArray, VirtualTimeScheduler, type SchedulerLike } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRequest, ModelFinish } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { outcomeOf } from '../support/collect.js';
import { FakeOpenAIServer, type FakeReply } from '../support/fake-openai-server.js';

// `timeoutMs` bounds the wait for the headers and every silence after them, through the real
// client against the fake server. Where a test says how long a silence lasted, the watchdog
// runs on a VirtualTimeScheduler (the model's `scheduler`): the test decides how much time
// passes, so a loaded machine cannot flip a result. Elsewhere the margins are wide (a 200 ms
// limit against 1 s gaps).

const HELLO: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };
const LIMIT_MS = 200;
/**
 * The limit of the tests on virtual time. It also bounds the real wait for the headers, so it
 * is long enough for any loaded machine; the silences the tests measure are virtual.
 */
const VIRTUAL_LIMIT_MS = 5_000;

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(async () => {
  await server.close();
});

function model(scheduler?: SchedulerLike): OpenAIChatModel {
  const timeoutMs = scheduler ? VIRTUAL_LIMIT_MS : LIMIT_MS;
  return new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, timeoutMs, scheduler });
}

async function failureOf(reply: FakeReply): Promise<{ error: ModelError; types: string[] }> {
  server.enqueue(reply);
  const { values, error } = await outcomeOf(model().stream(HELLO));
  expect(error).toBeInstanceOf(ModelError);
  return { error: error as ModelError, types: values.map((c) => c.type) };
}

describe('OpenAIChatModel: timeoutMs is also an idle timeout', () => {
  it('a stream that goes silent right after its headers ends with a ModelError after exactly timeoutMs of silence, and the request is aborted', async () => {
    const scheduler = new VirtualTimeScheduler();
    server.enqueue({ text: 'never sent', stallAfterChunks: 0 });
    const outcome = outcomeOf(model(scheduler).stream(HELLO));
    // The watchdog starts once the headers are in; then the test lets virtual time run.
    await expect.poll(() => scheduler.actions.length, { timeout: 10_000 }).toBeGreaterThan(0);
    scheduler.flush();
    const { values, error } = await outcome;
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).message).toBe('model "m": the server sent nothing for 5000 ms (timeoutMs) after 0 chunks: the stream was abandoned');
    expect((error as ModelError).status).toBeUndefined();
    expect(values).toEqual([]);
    // It gave up at the limit: not a check earlier, not a check later.
    expect(scheduler.frame).toBe(VIRTUAL_LIMIT_MS);
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
    const scheduler = new VirtualTimeScheduler();
    // Three quarters of the limit pass (virtual time) after every chunk: each silence stays
    // under timeoutMs, while the 24 chunks together span 18 times timeoutMs.
    const silence = (VIRTUAL_LIMIT_MS * 3) / 4;
    // Real gaps too, so the chunks arrive in separate reads and a timeout could cut the stream.
    server.enqueue({ text: 'x'.repeat(24), chunkSize: 1, chunkDelayMs: 10 });
    const letSilencePass = (): void => {
      scheduler.maxFrames = scheduler.frame + silence;
      scheduler.flush();
      scheduler.frame = scheduler.maxFrames;
    };
    const chunks = await lastValueFrom(
      model(scheduler)
        .stream(HELLO)
        .pipe(
          tap((chunk) => chunk.type === 'text-delta' && letSilencePass()),
          toArray(),
        ),
    );
    expect(scheduler.frame).toBe(24 * silence);
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
