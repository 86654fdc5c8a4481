import { describe, expect, it, vi } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { record } from '../support/collect-events.js';
import { multitaskArgs, type TaskTuple } from '../support/delegation-script.js';
import { offlineEnginePerTest, type OfflineEngine } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

let offline: OfflineEngine | undefined;
const startOffline = offlineEnginePerTest();

const FOUR: TaskTuple[] = [1, 2, 3, 4].map((i) => [i, 'alpha', `job ${i}`, `task ${i}`] as const);

describe('cancelling a multitask, in fake time', () => {
  it('never starts the queued tasks and leaves no timer behind', async () => {
    offline = await startOffline(
      {
        main: scriptedSteps({ toolCalls: [{ name: 'multitask', args: multitaskArgs(FOUR) }] }),
        alpha: (t) => ({ text: t.prompt, delayMs: 10_000 }), // slow: still running when cancelled
      },
      [testAgent('alpha')],
      { multitaskMaxTasks: 2 },
    );
    vi.useFakeTimers();
    const run = record(offline.engine.stream('go'));
    await vi.advanceTimersByTimeAsync(100);
    const prompts = (): string[] => offline!.model.requests.map((r) => String(r.messages.at(-1)?.content));
    expect(prompts()).toEqual(['go', 'job 1', 'job 2']);
    const seen = run.events.length;

    run.subscription.unsubscribe();
    // The children's model timers and the tool timeouts are gone with them.
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(prompts()).toEqual(['go', 'job 1', 'job 2']);
    expect(run.events).toHaveLength(seen);
    expect(run.completed).toBe(false);
  });

  it('without cancelling, the queued tasks start as slots free up', async () => {
    offline = await startOffline(
      {
        main: scriptedSteps({ toolCalls: [{ name: 'multitask', args: multitaskArgs(FOUR) }] }),
        alpha: (t) => ({ text: t.prompt, delayMs: 10_000 }),
      },
      [testAgent('alpha')],
      { multitaskMaxTasks: 2 },
    );
    vi.useFakeTimers();
    const run = record(offline.engine.stream('go'));
    await vi.advanceTimersByTimeAsync(10_100);
    expect(offline.model.requests).toHaveLength(5); // main + two finished + two started
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run.completed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
