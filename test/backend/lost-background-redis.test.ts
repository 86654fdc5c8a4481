/**
 * On a backend, a background task cancelled by its engine's `close()` is recorded cancelled,
 * and its result (none: it was stopped) never waits in Redis. Its conversation's next prompt,
 * on a new engine, says it was interrupted and how to resume it, once (the history's results
 * block tells it from then on: `unreportedStarts`).
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { steps } from '../support/delegation-script.js';
import { lifecycleTaskReply, parseTaskResult } from '../support/lifecycle-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const AGENTS = [testAgent('alpha')];

describe.skipIf(!HAS_REDIS)('a background task its engine closed on, on a backend', () => {
  const scale = useScaleKits();

  it("the conversation's next prompt on a new engine tells it was interrupted, once", async () => {
    const kit = await scale.kit(30_000);
    await kit.worker();
    const hang = createGate();
    const f = kit.fixture;
    f.route({ main: steps(lifecycleTaskReply('alpha', 'long job', { background: true })), alpha: async () => (await hang.promise, { text: 'never' }) });
    const a = await kit.engine({}, AGENTS);
    const { taskId } = parseTaskResult(own(await collect(a.stream('start', { sessionId: 's1' })), 'ToolCallEnd')[0]!.text);
    await f.server.waitForRequests(3); // main twice, then alpha on the worker, which hangs
    await a.close();
    f.route({ main: () => ({ text: 'ok' }) });
    const b = await kit.engine({}, AGENTS);
    // Held until the worker has heard the cancel: answered before, the task would have finished.
    expect((await b.tasks.whenSettled(taskId))?.state).toBe('cancelled');
    hang.open();
    const lastPrompt = async (prompt: string): Promise<string> => {
      await collect(b.stream(prompt, { sessionId: 's1' }));
      return String(f.requestsOf('main').at(-1)!.body.messages!.at(-1)!.content);
    };
    const told = parseTaskResult(await lastPrompt('anything new?'));
    expect(told).toMatchObject({ taskId, status: 'failure', content: `ERROR: interrupted: the engine stopped before it finished; resume it with task_id ${taskId}` });
    expect(await lastPrompt('and now?')).toBe('and now?');
  }, 60_000);
});
