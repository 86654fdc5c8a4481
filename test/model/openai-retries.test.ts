import OpenAI from 'openai';
import { asyncScheduler, lastValueFrom, VirtualTimeScheduler, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../src/model/openai-chat-model.js';
import { resourceCounts } from '../support/active-resources.js';
import { outcomeOf } from '../support/collect.js';
import { FakeOpenAIServer, type FakeReply } from '../support/fake-openai-server.js';

// OpenAIChatModel's own retries, through the real client against the fake server: a capped
// wait, abortable by unsubscribing, and no retry of a failure that would only fail again.

const HELLO: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };
const AN_HOUR = { 'retry-after': '3600' };

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(async () => {
  await server.close();
});

function model(options: Partial<OpenAIChatModelOptions> = {}): OpenAIChatModel {
  return new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 2, ...options });
}

async function errorOf(reply: FakeReply): Promise<ModelError> {
  server.setHandler(() => reply);
  const { error } = await outcomeOf(model().stream(HELLO));
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

/** The model id of {@link barrierRequest}'s request, to tell it from the model's. */
const BARRIER_MODEL = 'barrier';

/** A chat request of the test's own to the fake server; resolves once answered. */
async function barrierRequest(): Promise<void> {
  const body = JSON.stringify({ model: BARRIER_MODEL, messages: [{ role: 'user', content: 'barrier' }] });
  const answer = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  await answer.text();
}

/** Resolves once `check` holds, polling every few milliseconds for up to 10 s (a bound for a busy machine, not a target). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('OpenAIChatModel retries: Retry-After', () => {
  it('caps a Retry-After of an hour at maxRetryDelayMs, then retries and succeeds (virtual time: the wait is read, not timed)', async () => {
    const scheduler = new VirtualTimeScheduler();
    server.enqueue({ status: 429, headers: AN_HOUR }, { text: 'after the capped wait' });
    const done = lastValueFrom(model({ maxRetryDelayMs: 100, scheduler }).stream(HELLO));
    await until(() => scheduler.actions.length > 0, 'the retry wait to be scheduled');
    // The one wait scheduled is the cap, not the hour the server asked for.
    expect(scheduler.actions.map((action) => action.delay)).toEqual([100]);
    expect(server.requests).toHaveLength(1);
    scheduler.flush();
    expect(await done).toMatchObject({ type: 'finish', text: 'after the capped wait' });
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it('waits the Retry-After the server asks for when it is under the cap (virtual time: 1 s is read, not timed)', async () => {
    const scheduler = new VirtualTimeScheduler();
    server.enqueue({ status: 429, headers: { 'retry-after': '1' } }, { text: 'after a second' });
    const done = lastValueFrom(model({ scheduler }).stream(HELLO));
    await until(() => scheduler.actions.length > 0, 'the retry wait to be scheduled');
    // The client's own first backoff would be at most 0.5 s: 1,000 is the server's word.
    expect(scheduler.actions.map((action) => action.delay)).toEqual([1_000]);
    scheduler.flush();
    expect(await done).toMatchObject({ type: 'finish', text: 'after a second' });
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it('caps it at 30 s by default (on a virtual scheduler: no real wait)', async () => {
    const scheduler = new VirtualTimeScheduler();
    server.enqueue({ status: 429, headers: AN_HOUR }, { text: 'retried' });
    const done = lastValueFrom(model({ scheduler }).stream(HELLO));
    await until(() => scheduler.actions.length > 0, 'the retry wait to be scheduled');
    expect(scheduler.actions.map((action) => action.delay)).toEqual([30_000]);
    scheduler.flush();
    expect(await done).toMatchObject({ type: 'finish', text: 'retried' });
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it('unsubscribing during the wait clears its timer at once, and no second request follows', async () => {
    server.enqueue({ status: 429, headers: AN_HOUR });
    // The real async scheduler, watched: the wait is a real timer, and the test knows when it is set.
    const delays: number[] = [];
    const scheduler: SchedulerLike = {
      now: () => asyncScheduler.now(),
      schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
        delays.push(delay ?? 0);
        return asyncScheduler.schedule(work, delay, state);
      },
    };
    const subscription = model({ scheduler }).stream(HELLO).subscribe();
    // Waited for, not slept on: on a busy machine the 429 can take longer than any fixed delay to be read.
    await until(() => delays.includes(30_000), 'the retry wait (the hour asked, capped at 30 s) to be scheduled');
    // Counted around a synchronous unsubscribe, so no other timer of the test runner can blur it.
    const before = resourceCounts().Timeout;
    subscription.unsubscribe();
    expect(before - resourceCounts().Timeout).toBe(1);
    // Nothing more happens, shown by a barrier instead of a fixed sleep: a request of our own,
    // sent now and answered, takes many turns of the event loop and reaches the server after
    // anything the model sent at the unsubscribe (a retry skipping the wait would be on the
    // wire first); and any retry must schedule through the scheduler, which saw no new wait.
    await barrierRequest();
    expect(server.requests.map((r) => r.body.model)).toEqual(['m', BARRIER_MODEL]);
    expect(delays).toEqual([30_000]);
  });

  it('a ready client keeps its maxRetries, but its own uncapped, unabortable wait is never used', async () => {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 1, logLevel: 'off' });
    server.setHandler(() => ({ status: 429, headers: AN_HOUR }));
    const { error } = await outcomeOf(new OpenAIChatModel({ model: 'm', client, maxRetryDelayMs: 20 }).stream(HELLO));
    expect((error as ModelError).message).toBe(
      'model "m": HTTP 429: Rate limit reached. Please try again later. (gave up after 2 attempts; the server asked to wait 3600 s, more than the 20 ms cap)',
    );
    expect(server.requests).toHaveLength(2);
  });
});

describe('OpenAIChatModel retries: deterministic failures are not retried', () => {
  for (const status of [400, 401, 403, 404, 422]) {
    it(`HTTP ${status}: one request, the server's message passed on`, async () => {
      const error = await errorOf({ status, errorMessage: `refused with ${status}`, headers: { 'retry-after-ms': '0' } });
      expect(error.status).toBe(status);
      expect(error.message).toBe(`model "m": HTTP ${status}: refused with ${status}`);
      expect(server.requests).toHaveLength(1);
    });
  }

  it('a 500 that says the chat template failed: one request', async () => {
    const error = await errorOf({ status: 500, errorMessage: 'Error rendering prompt with jinja template: roles must alternate', headers: { 'retry-after-ms': '0' } });
    expect(error.message).toBe('model "m": HTTP 500: Error rendering prompt with jinja template: roles must alternate');
    expect(server.requests).toHaveLength(1);
  });

  it('an ordinary 500 is retried maxRetries times, and the error says how many attempts were made', async () => {
    const error = await errorOf({ status: 500, errorMessage: 'overloaded', headers: { 'retry-after-ms': '0' } });
    expect(error.message).toBe('model "m": HTTP 500: overloaded (gave up after 3 attempts)');
    expect(server.requests).toHaveLength(3);
  });
});
