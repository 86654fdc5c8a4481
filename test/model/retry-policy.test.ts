import { APIConnectionError, APIError } from 'openai';
import { asyncScheduler, defer, throwError, VirtualTimeScheduler, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../../src/model/model-error.js';
import { retryModelRequest, type RetryPolicy } from '../../src/model/retry-policy.js';
import { toModelError } from '../../src/model/to-model-error.js';
import { createTestScheduler, timeline } from '../support/virtual-time.js';

// The retry policy of OpenAIChatModel in virtual time: which failures are retried, how long
// each wait is, and that a wait dies with its subscription. The errors are the `openai`
// client's own, made by its error factory as it makes them for a response.

const POLICY: RetryPolicy = { maxRetries: 2, maxDelayMs: 30_000, scheduler: asyncScheduler, random: () => 0 };

function httpError(status: number, headers: Record<string, string> = {}, message = 'boom'): ModelError {
  return toModelError(APIError.generate(status, { error: { message } }, undefined, new Headers(headers)), 'm');
}

/** Runs `error`, failing every attempt, through the policy; the log of when each attempt was made and how it ended. */
function attempts(error: ModelError, policy: Partial<RetryPolicy> = {}): { made: number[]; log: string[] } {
  const scheduler = createTestScheduler();
  const made: number[] = [];
  let log: string[] = [];
  scheduler.run(() => {
    const failing$: Observable<never> = defer(() => {
      made.push(scheduler.now());
      return throwError(() => error);
    });
    log = timeline(scheduler, failing$.pipe(retryModelRequest({ ...POLICY, ...policy })), String);
  });
  return { made, log };
}

describe('retryModelRequest: how long it waits', () => {
  it('caps a Retry-After of an hour at maxDelayMs (30 s), then gives up naming the attempts and the asked wait', () => {
    const { made, log } = attempts(httpError(429, { 'retry-after': '3600' }));
    expect(made).toEqual([0, 30_000, 60_000]);
    expect(log).toEqual([
      '60000 # ModelError: model "m": HTTP 429: boom (gave up after 3 attempts; the server asked to wait 3600 s, more than the 30000 ms cap)',
    ]);
  });

  it('waits what a Retry-After below the cap asks, in seconds or (retry-after-ms) milliseconds', () => {
    expect(attempts(httpError(503, { 'retry-after': '2' })).made).toEqual([0, 2_000, 4_000]);
    expect(attempts(httpError(429, { 'retry-after-ms': '250', 'retry-after': '9' })).made).toEqual([0, 250, 500]);
    expect(attempts(httpError(429, { 'retry-after': '0' })).made).toEqual([0, 0, 0]);
  });

  it('without Retry-After: 0.5 s, then 1 s, less up to a quarter of jitter, and never above the cap', () => {
    expect(attempts(httpError(500)).made).toEqual([0, 500, 1_500]);
    expect(attempts(httpError(500), { random: () => 1 }).made).toEqual([0, 375, 1_125]);
    expect(attempts(httpError(500), { maxDelayMs: 100 }).made).toEqual([0, 100, 200]);
  });

  it('makes maxRetries + 1 attempts; with 0 it fails at once with the plain message', () => {
    expect(attempts(httpError(500), { maxRetries: 4 }).made).toHaveLength(5);
    expect(attempts(httpError(500), { maxRetries: 0 })).toEqual({ made: [0], log: ['0 # ModelError: model "m": HTTP 500: boom'] });
  });
});

describe('retryModelRequest: what it retries', () => {
  it('retries rate limits, timeouts, conflicts, server errors and connection failures', () => {
    for (const status of [408, 409, 429, 500, 502, 503]) expect(attempts(httpError(status)).made).toHaveLength(3);
    const refused = toModelError(new APIConnectionError({ cause: new Error('connect ECONNREFUSED') }), 'm');
    expect(attempts(refused).made).toHaveLength(3);
  });

  it('never retries a deterministic failure: 400, 401, 403, 404, 413, 422', () => {
    for (const status of [400, 401, 403, 404, 413, 422]) {
      expect(attempts(httpError(status))).toEqual({ made: [0], log: [`0 # ModelError: model "m": HTTP ${status}: boom`] });
    }
  });

  it('never retries a 5xx whose message says the prompt cannot be built or does not fit', () => {
    const messages = [
      'Error rendering prompt with jinja template: Conversation roles must alternate',
      'template: chat:1:2: executing "chat" at <.Messages>: error calling index',
      'the request exceeds the available context size, try increasing it',
      "This model's maximum context length is 8192 tokens",
      'prompt is too long: 210000 tokens > 200000 maximum',
    ];
    for (const message of messages) expect(attempts(httpError(500, {}, message)).made).toEqual([0]);
  });

  it('obeys x-should-retry from the server, either way', () => {
    expect(attempts(httpError(500, { 'x-should-retry': 'false' })).made).toEqual([0]);
    expect(attempts(httpError(400, { 'x-should-retry': 'true' })).made).toHaveLength(3);
  });

  it('never retries what is not an HTTP or connection failure (a response that could not be read)', () => {
    expect(attempts(toModelError(new SyntaxError('Unexpected end of JSON input'), 'm')).made).toEqual([0]);
  });
});

describe('retryModelRequest: cancellation', () => {
  it('unsubscribing during a wait removes its timer at once, and no attempt follows', () => {
    const scheduler = new VirtualTimeScheduler();
    let made = 0;
    const failing$ = defer(() => {
      made += 1;
      return throwError(() => httpError(429, { 'retry-after': '3600' }));
    });
    const subscription = failing$.pipe(retryModelRequest({ ...POLICY, scheduler })).subscribe({ error: () => undefined });
    expect(scheduler.actions.map((action) => action.delay)).toEqual([30_000]);
    subscription.unsubscribe();
    expect(scheduler.actions).toEqual([]);
    scheduler.flush();
    expect(made).toBe(1);
  });
});
