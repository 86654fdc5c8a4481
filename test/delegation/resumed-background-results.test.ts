/**
 * A background task resumed in the background produces a second result under the same task
 * id, in one engine without a backend (issue 28 review, item 1): each run's result reaches
 * the conversation, once. test/backend/resumed-results.test.ts is the same on Redis.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent } from '../support/agent-turns.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { occurrences, resumedAfterDelivery, resumedWhileWaiting, routeByRun, type RunPlan } from '../support/resumed-task-plans.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** An engine whose main agent answers each run by its plan; the main prompts as read. */
async function scripted(plan: (engine: () => HarnessEngine) => RunPlan): Promise<{ engine: HarnessEngine; prompts: string[] }> {
  f = await startDelegationFixture();
  const engine = f.engine({}, [testAgent('alpha')]);
  return { engine, prompts: routeByRun(f, plan(() => engine)) };
}

describe('a resumed background task without a backend', () => {
  it("delivers both runs' results when the first still waited as the task was resumed, each once", async () => {
    const { engine, prompts } = await scripted((engine) => resumedWhileWaiting(() => engine().tasks));
    await engine.call('go', { sessionId: 's1' });
    await engine.call('next', { sessionId: 's1' });
    expect(occurrences(prompts[1]!, 'alpha: first')).toBe(1);
    expect(occurrences(prompts[1]!, 'alpha: second')).toBe(1);
    await engine.call('later', { sessionId: 's1' });
    expect(prompts[2]).not.toContain('<background_task_results>');
  });

  it("delivers the resumed run's result after the first was delivered, once", async () => {
    const { engine, prompts } = await scripted((engine) => resumedAfterDelivery(() => engine().tasks));
    await engine.call('go', { sessionId: 's1' });
    await engine.call('next', { sessionId: 's1' });
    expect(occurrences(prompts[1]!, 'alpha: first')).toBe(1);
    await engine.call('third', { sessionId: 's1' });
    expect(occurrences(prompts[2]!, 'alpha: second')).toBe(1);
    expect(prompts[2]).not.toContain('alpha: first');
    await engine.call('later', { sessionId: 's1' });
    expect(prompts[3]).not.toContain('<background_task_results>');
  });
});
