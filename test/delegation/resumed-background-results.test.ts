/**
 * A background task resumed in the background produces a second result under the same task
 * id, in one engine without a backend (issue 28 review, item 1): each run's result reaches
 * the conversation, once. test/backend/resumed-results.test.ts is the same on Redis.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { testAgent, type Turn } from '../support/agent-turns.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import type { FakeReply } from '../support/fake-openai-server.js';
import { lifecycleTaskReply, parseTaskResult, settled } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

type Plan = Record<string, (turn: Turn, taskId: () => string) => Promise<FakeReply>>;

/** An engine whose main agent answers each run by `plan[its prompt]`; the main prompts as read. */
async function scripted(plan: (engine: () => HarnessEngine) => Plan): Promise<{ engine: HarnessEngine; prompts: string[] }> {
  const prompts: string[] = [];
  let taskId = '';
  f = await startDelegationFixture();
  const engine = f.engine({}, [testAgent('alpha')]);
  const runs = plan(() => engine);
  f.route({
    main: async (turn) => {
      if (turn.step === 1) prompts.push(turn.prompt);
      const last = turn.toolResults[0];
      if (last?.includes('<task_id>') && !taskId) taskId = parseTaskResult(last).taskId;
      return runs[Object.keys(runs).find((p) => turn.prompt.endsWith(p))!]!(turn, () => taskId);
    },
    alpha: (turn) => ({ text: `alpha: ${turn.prompt}` }),
  });
  return { engine, prompts };
}

function occurrences(prompt: string, text: string): number {
  return prompt.split(text).length - 1;
}

describe('a resumed background task without a backend', () => {
  it("delivers both runs' results when the first still waited as the task was resumed, each once", async () => {
    const { engine, prompts } = await scripted((engine) => ({
      go: async (turn, taskId) => {
        if (turn.step === 1) return lifecycleTaskReply('alpha', 'first', { background: true });
        await settled(engine().tasks, taskId());
        if (turn.step === 2) return lifecycleTaskReply('alpha', 'second', { background: true, task_id: taskId() });
        return { text: 'both started' };
      },
      next: async () => ({ text: 'ok' }),
      later: async () => ({ text: 'ok' }),
    }));
    await engine.call('go', { sessionId: 's1' });
    await engine.call('next', { sessionId: 's1' });
    expect(occurrences(prompts[1]!, 'alpha: first')).toBe(1);
    expect(occurrences(prompts[1]!, 'alpha: second')).toBe(1);
    await engine.call('later', { sessionId: 's1' });
    expect(prompts[2]).not.toContain('<background_task_results>');
  });

  it("delivers the resumed run's result after the first was delivered, once", async () => {
    const { engine, prompts } = await scripted((engine) => ({
      go: async (turn, taskId) => {
        if (turn.step === 1) return lifecycleTaskReply('alpha', 'first', { background: true });
        await settled(engine().tasks, taskId());
        return { text: 'started' };
      },
      next: async (turn, taskId) => {
        if (turn.step === 1) return lifecycleTaskReply('alpha', 'second', { background: true, task_id: taskId() });
        await settled(engine().tasks, taskId());
        return { text: 'resumed' };
      },
      third: async () => ({ text: 'ok' }),
      later: async () => ({ text: 'ok' }),
    }));
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
