import { getEventListeners } from 'node:events';
import { tap } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors/abort-error.js';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { outcomeOf, typesOf } from '../support/collect.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { createTestScheduler } from '../support/virtual-time.js';

const SLOW_ANSWER = { text: 'a long answer that streams slowly, piece by piece', chunkSize: 2, chunkDelayMs: 100 };

/** A tool that runs until its signal aborts (then rejects), remembering the signal. */
function waitingTool(): Tool & { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    name: 'wait',
    description: 'Waits until cancelled.',
    parameters: { type: 'object' },
    signals,
    execute: (_args, { signal }) => {
      signals.push(signal);
      return new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true }));
    },
  };
}

describe('cancelling a run against the fake server', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('unsubscribing mid-stream aborts the HTTP request, emits nothing more, and leaves no timer or socket', async () => {
    const baseline = resourceCounts();
    server = await FakeOpenAIServer.start({ replies: [SLOW_ANSWER] });
    const agent = new ReActAgent({ model: openAIModelFor(server) });
    const events: AgentEvent[] = [];
    let ended = false;
    await new Promise<void>((resolve) => {
      const subscription = agent.stream('talk slowly').subscribe({
        next: (event) => {
          events.push(event);
          if (event.type !== 'ReasonDelta') return;
          subscription.unsubscribe();
          resolve();
        },
        error: () => (ended = true),
        complete: () => (ended = true),
      });
    });
    const request = await server.waitForClosed(0);
    expect(request).toMatchObject({ aborted: true, completed: false });
    expect(typesOf(events)).toEqual(['RunStart', 'ContextSize', 'ReasonStart', 'ReasonDelta']);
    expect(ended).toBe(false);
    await server.close();
    expect(events).toHaveLength(4);
    expect(await leakedResources(baseline)).toEqual({});
  });

  it('options.signal aborts the request and errors the stream with AbortError, no RunEnd, nothing left behind', async () => {
    const baseline = resourceCounts();
    server = await FakeOpenAIServer.start({ replies: [SLOW_ANSWER] });
    const agent = new ReActAgent({ model: openAIModelFor(server) });
    const controller = new AbortController();
    const reason = new Error('the user pressed stop');
    const { values, error, completed } = await outcomeOf(
      agent.stream('talk slowly', { signal: controller.signal }).pipe(
        tap((event) => {
          if (event.type === 'ReasonDelta') controller.abort(reason);
        }),
      ),
    );
    expect(completed).toBe(false);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).name).toBe('AbortError');
    expect((error as AbortError).message).toBe('The run was aborted: the user pressed stop');
    expect((error as AbortError).cause).toBe(reason);
    expect(typesOf(values)).not.toContain('RunEnd');
    expect((await server.waitForClosed(0)).aborted).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await server.close();
    expect(await leakedResources(baseline)).toEqual({});
  });

  it('call() rejects with AbortError when its signal aborts, and the request is closed', async () => {
    const baseline = resourceCounts();
    server = await FakeOpenAIServer.start({ replies: [{ hang: true }] });
    const agent = new ReActAgent({ model: openAIModelFor(server) });
    const controller = new AbortController();
    const result = agent.call('wait for it', { signal: controller.signal });
    await server.waitForRequests(1);
    controller.abort();
    await expect(result).rejects.toSatisfy((e: unknown) => e instanceof AbortError && e.name === 'AbortError');
    expect((await server.waitForClosed(0)).aborted).toBe(true);
    await server.close();
    expect(await leakedResources(baseline)).toEqual({});
  });

  it('a streamed run that ends normally removes its abort listener', async () => {
    server = await FakeOpenAIServer.start();
    const controller = new AbortController();
    let listenersDuringRun = 0;
    const { completed } = await outcomeOf(
      new ReActAgent({ model: openAIModelFor(server) })
        .stream('hi', { signal: controller.signal })
        .pipe(tap(() => (listenersDuringRun = Math.max(listenersDuringRun, getEventListeners(controller.signal, 'abort').length)))),
    );
    expect(completed).toBe(true);
    expect(listenersDuringRun).toBeGreaterThan(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('cancelling a run (ScriptedModel)', () => {
  it('an already-aborted signal fails at once, before the model is asked', async () => {
    const model = new ScriptedModel([{ text: 'never sent' }]);
    const agent = new ReActAgent({ model });
    const signal = AbortSignal.abort();
    const seen: string[] = [];
    agent.stream('hi', { signal }).subscribe({ next: (e) => seen.push(e.type), error: (e: Error) => seen.push(`error ${e.name}`) });
    expect(seen).toEqual(['error AbortError']);
    await expect(agent.call('hi', { signal })).rejects.toBeInstanceOf(AbortError);
    expect(model.requests).toHaveLength(0);
  });

  it('unsubscribing while a tool runs aborts the tool\'s signal, and no ToolCallEnd follows', async () => {
    const tool = waitingTool();
    const model = new ScriptedModel([{ toolCalls: [{ name: 'wait', args: {} }] }, { text: 'unreachable' }]);
    const events: string[] = [];
    const subscription = new ReActAgent({ model, tools: [tool] }).stream('go').subscribe((e) => events.push(e.type));
    expect(events.at(-1)).toBe('ToolCallStart');
    expect(tool.signals[0]?.aborted).toBe(false);
    subscription.unsubscribe();
    expect(tool.signals[0]?.aborted).toBe(true);
    await Promise.resolve();
    expect(events.at(-1)).toBe('ToolCallStart');
    expect(model.requests).toHaveLength(1);
  });

  it('aborting the signal while a tool runs aborts the tool too, and errors with AbortError', async () => {
    const tool = waitingTool();
    const controller = new AbortController();
    const model = new ScriptedModel([{ toolCalls: [{ name: 'wait', args: {} }] }]);
    const run = outcomeOf(new ReActAgent({ model, tools: [tool] }).stream('go', { signal: controller.signal }));
    // The run is synchronous up to the tool, which is now waiting.
    expect(tool.signals[0]?.aborted).toBe(false);
    controller.abort();
    expect(tool.signals[0]?.aborted).toBe(true);
    const { values, error } = await run;
    expect((error as Error).name).toBe('AbortError');
    expect(typesOf(values).at(-1)).toBe('ToolCallStart');
  });

  it('unsubscribing mid-stream stops the model\'s timers: nothing is emitted or scheduled afterwards (virtual time)', () => {
    const scheduler = createTestScheduler();
    const log: string[] = [];
    let queuedAfterUnsubscribe = -1;
    scheduler.run(() => {
      const model = new ScriptedModel([{ text: 'one two three four five', chunkSize: 4 }], { scheduler, chunkDelayMs: 10 });
      const subscription = new ReActAgent({ model }).stream('count').subscribe({
        next: (e) => log.push(`${scheduler.now()} ${e.type}`),
        complete: () => log.push(`${scheduler.now()} |`),
      });
      scheduler.schedule(() => subscription.unsubscribe(), 15);
      // Runs after the unsubscribe, and is itself already off the queue: anything left is the run's.
      scheduler.schedule(() => (queuedAfterUnsubscribe = scheduler.actions.length), 16);
    });
    expect(log).toEqual(['0 RunStart', '0 ContextSize', '0 ReasonStart', '0 ReasonDelta', '10 ReasonDelta']);
    expect(queuedAfterUnsubscribe).toBe(0);
  });
});
