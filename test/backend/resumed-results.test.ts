/**
 * A background task resumed in the background produces a second result under the same task
 * id, on a Redis backend (issue 28 review, item 1). Delivered results were remembered by task
 * id only: the second result replaced a first one still waiting, and once the first was
 * delivered the second was taken for it and dropped. Each run's result must reach the
 * conversation, once, on whichever engine runs it next (a restarted one too).
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { occurrences, resumedAfterDelivery, resumedWhileWaiting, routeByRun } from '../support/resumed-task-plans.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const AGENTS = [testAgent('alpha')];
const LIVE_STALL_MS = 30_000;

describe.skipIf(!HAS_REDIS)('a resumed background task on a backend', () => {
  const scale = useScaleKits();

  it('delivers both runs\' results when the first still waited as the task was resumed, each once', async () => {
    const kit = await scale.kit(LIVE_STALL_MS);
    await kit.worker();
    const engine = await kit.engine({}, AGENTS);
    const prompts = routeByRun(kit.fixture, resumedWhileWaiting(() => engine.tasks));
    await engine.call('go', { sessionId: 's1' });
    await engine.call('next', { sessionId: 's1' });
    expect(occurrences(prompts[1]!, 'alpha: first')).toBe(1);
    expect(occurrences(prompts[1]!, 'alpha: second')).toBe(1);

    // Not again: here, nor on an engine started now on the same Redis.
    await engine.call('later', { sessionId: 's1' });
    const restarted = await kit.engine({}, AGENTS);
    await restarted.call('later', { sessionId: 's1' });
    expect(prompts.slice(2).map((p) => p.includes('<background_task_results>'))).toEqual([false, false]);
  });

  it('delivers the resumed run\'s result after the first was delivered, on another engine, once', async () => {
    const kit = await scale.kit(LIVE_STALL_MS);
    await kit.worker();
    const [a, b] = [await kit.engine({}, AGENTS), await kit.engine({}, AGENTS)];
    const prompts = routeByRun(kit.fixture, resumedAfterDelivery(() => a.tasks));
    await a.call('go', { sessionId: 's1' });
    await a.call('next', { sessionId: 's1' });
    expect(occurrences(prompts[1]!, 'alpha: first')).toBe(1);
    // The conversation moves to engine b: the second run's result is there, once.
    await b.call('third', { sessionId: 's1' });
    expect(occurrences(prompts[2]!, 'alpha: second')).toBe(1);
    expect(prompts[2]).not.toContain('alpha: first');
    await a.call('later', { sessionId: 's1' });
    expect(prompts[3]).not.toContain('<background_task_results>');
  });
});
