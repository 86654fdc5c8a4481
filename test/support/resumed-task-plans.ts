/**
 * The scripts of the resumed-background-task tests (with and without a backend): the main
 * agent's answers by run, and the two ways a background task is resumed while its first
 * result is still waiting, or after it was delivered.
 */
import type { TaskTracker } from '../../src/delegation/task-tracker.js';
import type { Turn } from './agent-turns.js';
import type { DelegationFixture } from './delegation-fixture.js';
import type { FakeReply } from './fake-openai-server.js';
import { lifecycleTaskReply, parseTaskResult, settled } from './lifecycle-script.js';

/** The main agent's answer to each run, by the run's prompt; `taskId` is the first task started. */
export type RunPlan = Record<string, (turn: Turn, taskId: () => string) => Promise<FakeReply>>;

/** How often `text` occurs in `prompt`. */
export function occurrences(prompt: string, text: string): number {
  return prompt.split(text).length - 1;
}

/**
 * Routes the main agent by run: `plan[prompt]` answers each step of the run whose prompt (as
 * the model reads it) ends with that key; every main prompt is recorded and returned. The
 * child `alpha` answers with its prompt.
 */
export function routeByRun(fixture: DelegationFixture, plan: RunPlan): string[] {
  const prompts: string[] = [];
  let taskId = '';
  fixture.route({
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

/** Run `go` starts `alpha` in the background and resumes it while its first result still waits; `next` and `later` answer "ok". */
export function resumedWhileWaiting(tasks: () => TaskTracker): RunPlan {
  return {
    go: async (turn, taskId) => {
      if (turn.step === 1) return lifecycleTaskReply('alpha', 'first', { background: true });
      await settled(tasks(), taskId()); // its result waits for the next prompt
      if (turn.step === 2) return lifecycleTaskReply('alpha', 'second', { background: true, task_id: taskId() });
      return { text: 'both started' };
    },
    next: async () => ({ text: 'ok' }),
    later: async () => ({ text: 'ok' }),
  };
}

/** Run `go` starts `alpha` in the background; run `next` (after its result was delivered) resumes it; `third` and `later` answer "ok". */
export function resumedAfterDelivery(tasks: () => TaskTracker): RunPlan {
  return {
    go: async (turn, taskId) => {
      if (turn.step === 1) return lifecycleTaskReply('alpha', 'first', { background: true });
      await settled(tasks(), taskId());
      return { text: 'started' };
    },
    next: async (turn, taskId) => {
      if (turn.step === 1) return lifecycleTaskReply('alpha', 'second', { background: true, task_id: taskId() });
      await settled(tasks(), taskId());
      return { text: 'resumed' };
    },
    third: async () => ({ text: 'ok' }),
    later: async () => ({ text: 'ok' }),
  };
}
