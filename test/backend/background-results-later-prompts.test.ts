/**
 * On a Redis backend, a prompt shows the newest `shownAtOnce(maxResultChars)` of its
 * conversation's waiting background results. The engine took all of them out of Redis, so
 * the older ones never came: it now gives them back (in Redis, for every engine), and the
 * conversation's next prompts show them, on whichever engine runs them, each once.
 */
import { describe, expect, it } from 'vitest';
import { publishResult } from '../../src/backend/shared-results.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, type ScaleKit } from './scale-kit.js';

const TASKS = 10;

function finished(i: number): TaskInfo {
  return { taskId: `task_${i}`, agentName: 'digger', description: `dig ${i}`, sessionId: 's', parentRunId: 'run_1', background: true, state: 'done', startedAt: 1, endedAt: 10 + i, result: `found ${i}` };
}

function lastPrompt(kit: ScaleKit): string {
  return String(kit.fixture.requestsOf('main').at(-1)!.body.messages!.at(-1)!.content);
}

const shownIn = (text: string): string[] => [...text.matchAll(/<task_id>([^<]*)<\/task_id>/g)].map((m) => m[1]!);

describe.skipIf(!HAS_REDIS)('background results past what one prompt shows, on a backend', () => {
  const scale = useScaleKits();

  it('come with the next prompts, the newest first, on any engine: none lost, none twice', { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    kit.fixture.route({ main: () => ({ text: 'ok' }) });
    const [here, there, worker] = await Promise.all([kit.backend(), kit.backend(), kit.backend()]);
    for (let i = 0; i < TASKS; i++) await publishResult(worker.parts.redis, worker.parts.keys, finished(i));
    // maxResultChars 100: 4 results a prompt.
    const engines = [await kit.engine({ maxResultChars: 100 }, [], here), await kit.engine({ maxResultChars: 100 }, [], there)];
    const caught = async () => {
      await caughtUp(here);
      await caughtUp(there);
    };
    await caught();

    const prompts: string[] = [];
    // The first and third prompts here, the second and fourth on the other engine.
    for (const [i, prompt] of ['what came back?', 'and then?', 'anything else?', 'still?'].entries()) {
      await engines[i % 2]!.call(prompt, { sessionId: 's' });
      prompts.push(lastPrompt(kit));
      await caught();
    }
    const shown = prompts.map(shownIn);
    expect(shown).toEqual([
      ['task_6', 'task_7', 'task_8', 'task_9'],
      ['task_2', 'task_3', 'task_4', 'task_5'],
      ['task_0', 'task_1'],
      [],
    ]);
    expect(prompts[0]).toContain('(6 older background task results are waiting, to keep this prompt short; the newest of them: task_5 (digger), task_4 (digger)');
    expect(prompts[1]).toContain('(2 older background task results are waiting');
    // Nothing is left in Redis.
    expect(await here.parts.redis.hlen(here.parts.keys.results('s'))).toBe(0);
  });
});
