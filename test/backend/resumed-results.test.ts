/**
 * A background task resumed in the background produces a second result under the same task
 * id, on a Redis backend (issue 28 review, item 1). Delivered results were remembered by task
 * id only: the second result replaced a first one still waiting, and once the first was
 * delivered the second was taken for it and dropped. Each run's result must reach the
 * conversation, once, on whichever engine runs it next (a restarted one too).
 */
import { describe, expect, it } from 'vitest';
import { testAgent, type Turn } from '../support/agent-turns.js';
import type { FakeReply } from '../support/fake-openai-server.js';
import { lifecycleTaskReply, parseTaskResult, settled } from '../support/lifecycle-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, type ScaleKit } from './scale-kit.js';

const AGENTS = [testAgent('alpha')];
const LIVE_STALL_MS = 30_000;

/** How often `text` occurs in `prompt`. */
function occurrences(prompt: string, text: string): number {
  return prompt.split(text).length - 1;
}

/**
 * Routes the main agent by run: `plan[prompt]` answers each step of the run with that prompt
 * (the prompt as the model reads it ends with it); every main prompt is recorded. The child
 * answers with its prompt.
 */
function script(kit: ScaleKit, plan: Record<string, (turn: Turn, taskId: () => string) => Promise<FakeReply>>): string[] {
  const prompts: string[] = [];
  let taskId = '';
  kit.fixture.route({
    main: async (turn) => {
      if (turn.step === 1) prompts.push(turn.prompt);
      const last = turn.toolResults[0];
      if (last?.includes('<task_id>') && !taskId) taskId = parseTaskResult(last).taskId;
      const run = Object.keys(plan).find((p) => turn.prompt.endsWith(p))!;
      return plan[run]!(turn, () => taskId);
    },
    alpha: (turn) => ({ text: `alpha: ${turn.prompt}` }),
  });
  return prompts;
}

describe.skipIf(!HAS_REDIS)('a resumed background task on a backend', () => {
  const scale = useScaleKits();

  it('delivers both runs\' results when the first still waited as the task was resumed, each once', async () => {
    const kit = await scale.kit(LIVE_STALL_MS);
    await kit.worker();
    const engine = await kit.engine({}, AGENTS);
    const prompts = script(kit, {
      go: async (turn, taskId) => {
        if (turn.step === 1) return lifecycleTaskReply('alpha', 'first', { background: true });
        if (turn.step === 2) {
          await settled(engine.tasks, taskId()); // its result waits for the next prompt
          return lifecycleTaskReply('alpha', 'second', { background: true, task_id: taskId() });
        }
        await settled(engine.tasks, taskId());
        return { text: 'both started' };
      },
      next: async () => ({ text: 'ok' }),
      later: async () => ({ text: 'ok' }),
    });
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
    const prompts = script(kit, {
      go: async (turn, taskId) => {
        if (turn.step === 1) return lifecycleTaskReply('alpha', 'first', { background: true });
        await settled(a.tasks, taskId());
        return { text: 'started' };
      },
      next: async (turn, taskId) => {
        if (turn.step === 1) return lifecycleTaskReply('alpha', 'second', { background: true, task_id: taskId() });
        await settled(a.tasks, taskId());
        return { text: 'resumed' };
      },
      third: async () => ({ text: 'ok' }),
      later: async () => ({ text: 'ok' }),
    });
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
