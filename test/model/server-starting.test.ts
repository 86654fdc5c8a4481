import { VirtualTimeScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { ChatRequest, ModelChunk } from '../../src/model/chat-model.js';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../src/model/openai-chat-model.js';
import { record, type EventRecording } from '../support/collect-events.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';

// A server still starting: llama-server answers `503 Loading model` without Retry-After while
// it loads, and before it listens the connection is refused. The model waits for it within
// retryBudgetMs (beyond maxRetries), saying so once. The waits run on a virtual scheduler:
// the test flushes each one instead of sleeping.

const HELLO: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };
const LOADING = { status: 503, errorMessage: 'Loading model' } as const;

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function fakeServer(port?: number): Promise<FakeOpenAIServer> {
  const server = await FakeOpenAIServer.start(port === undefined ? {} : { port });
  servers.push(server);
  return server;
}

function model(baseURL: string, scheduler: VirtualTimeScheduler, options: Partial<OpenAIChatModelOptions> = {}): OpenAIChatModel {
  return new OpenAIChatModel({ model: 'm', baseURL, apiKey: 'k', maxRetries: 2, scheduler, ...options });
}

/**
 * Runs each wait the model schedules at once (a flush of the virtual clock) until the
 * recording ends; returns the waits, in order. `beforeWait(n)` runs before the n-th flush.
 */
async function flushWaits<T>(recording: EventRecording<T>, scheduler: VirtualTimeScheduler, beforeWait?: (n: number) => Promise<void>): Promise<number[]> {
  const waits: number[] = [];
  let finished = false;
  void recording.done.then(() => (finished = true));
  for (let turn = 0; turn < 2_000 && !finished; turn++) {
    if (scheduler.actions.length > 0) {
      waits.push(...scheduler.actions.map((a) => a.delay - scheduler.frame)); // an action's delay is its virtual due time
      await beforeWait?.(waits.length);
      scheduler.flush();
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  if (!finished) throw new Error('the request neither finished nor failed');
  return waits;
}

const warnings = (chunks: readonly ModelChunk[]) => chunks.filter((c) => c.type === 'warning');

describe('a server still starting is waited for within retryBudgetMs', () => {
  it('503 Loading model (no Retry-After) four times, then 200: waited for beyond maxRetries 2, with one warning', async () => {
    const server = await fakeServer();
    server.enqueue(LOADING, LOADING, LOADING, LOADING, { text: 'loaded' });
    const scheduler = new VirtualTimeScheduler();
    const run = record(model(server.baseURL, scheduler).stream(HELLO));
    const waits = await flushWaits(run, scheduler);
    expect(run.error).toBeUndefined();
    expect(run.events.at(-1)).toMatchObject({ type: 'finish', text: 'loaded' });
    expect(server.requests.map((r) => r.status)).toEqual([503, 503, 503, 503, 200]);
    expect(waits).toHaveLength(4);
    expect(warnings(run.events)).toEqual([
      { type: 'warning', code: 'model-server-starting', message: `model "m": HTTP 503: Loading model: waiting up to 60 s (retryBudgetMs) for the server at ${server.baseURL} to start` },
    ]);
  });

  it('a refused connection, then the server listens on that port: the request goes through', async () => {
    const gone = await fakeServer();
    const { baseURL } = gone;
    const port = Number(new URL(baseURL).port);
    await gone.close();
    const scheduler = new VirtualTimeScheduler();
    const run = record(model(baseURL, scheduler).stream(HELLO));
    let server: FakeOpenAIServer | undefined;
    // Refused twice (past the first waits), then the server starts before the third wait ends.
    await flushWaits(run, scheduler, async (n) => {
      if (n === 3) server = await fakeServer(port);
    });
    expect(run.error).toBeUndefined();
    expect(run.events.at(-1)).toMatchObject({ type: 'finish' });
    expect(server!.requests).toHaveLength(1);
    const [warning] = warnings(run.events);
    expect(warnings(run.events)).toHaveLength(1);
    expect(warning?.message).toMatch(/connection failed \(.*ECONNREFUSED.*\): waiting up to 60 s \(retryBudgetMs\)/);
  });

  it('gives up once its waits add up to the budget, and says so', async () => {
    const server = await fakeServer();
    server.setHandler(() => LOADING);
    const scheduler = new VirtualTimeScheduler();
    const run = record(model(server.baseURL, scheduler, { retryBudgetMs: 5_000 }).stream(HELLO));
    const waits = await flushWaits(run, scheduler);
    expect(waits.reduce((a, b) => a + b, 0)).toBe(5_000);
    expect((run.error as Error).message).toMatch(/^model "m": HTTP 503: Loading model \(gave up after \d+ attempts; waited 5 s in all, the whole retry budget \(retryBudgetMs\)\)$/);
  });

  it('maxRetries 0 turns waiting off too: one request, no wait, no warning', async () => {
    const server = await fakeServer();
    server.enqueue(LOADING);
    const scheduler = new VirtualTimeScheduler();
    const run = record(model(server.baseURL, scheduler, { maxRetries: 0 }).stream(HELLO));
    expect(await flushWaits(run, scheduler)).toEqual([]);
    expect((run.error as Error).message).toBe('model "m": HTTP 503: Loading model');
    expect(warnings(run.events)).toEqual([]);
  });

  it('a run streams the wait as one Warning event, however many retries it takes', async () => {
    const server = await fakeServer();
    server.enqueue(LOADING, LOADING, LOADING, { text: 'ready now' });
    const scheduler = new VirtualTimeScheduler();
    const run = record<AgentEvent>(new ReActAgent({ model: model(server.baseURL, scheduler) }).stream('hello'));
    await flushWaits(run, scheduler);
    expect(run.events.filter((e) => e.type === 'Warning')).toEqual([expect.objectContaining({ code: 'model-server-starting' })]);
    expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ready now' });
  });
});
