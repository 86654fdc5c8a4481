import { tap } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskWrapEvent } from '../../src/events/agent-event.js';
import { isTaskWrap } from '../../src/events/guards.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, taskReply, type TaskTuple } from '../support/delegation-script.js';
import { parseTaskResult } from '../support/lifecycle-script.js';

let f: DelegationFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
});

const jobs: TaskTuple[] = [1, 2].map((i) => [i, 'alpha', `job ${i}`, `t${i}`] as const);
const isChildEnd = (e: unknown): e is TaskWrapEvent => isTaskWrap(e as TaskWrapEvent) && (e as TaskWrapEvent).event.type === 'RunEnd';

/** The `<task_result>` line of one task in a `task` or `multitask` result. */
const resultOf = (text: string, taskId: string) => parseTaskResult(text.split('\n').find((line) => line.includes(`<task_id>${taskId}</task_id>`)) ?? text);

describe('a child whose RunEnd was seen has ended: nothing cancels or drops it afterwards', () => {
  for (const tool of ['task', 'multitask'] as const) {
    it(`${tool}: cancelTask from the consumer reacting to the wrapped RunEnd answers false; the child keeps one terminal event and its answer`, async () => {
      f = await startDelegationFixture({ main: steps(tool === 'task' ? taskReply('alpha', 'job 1') : multitaskReply(jobs)), alpha: (t) => ({ text: `done ${t.prompt}` }) });
      const engine = f.engine({}, [testAgent('alpha')]);
      const answers: boolean[] = [];
      // The consumer reacts in the tick the wrapped RunEnd reaches it, before the child's stream completes.
      const reacting = engine.stream('go').pipe(tap((e) => void (isChildEnd(e) && answers.length === 0 && answers.push(engine.cancelTask(e.taskId)))));
      const events = await collect(reacting);
      const first = wraps(events).find(isChildEnd)!;
      const terminals = wraps(events).filter((w) => w.taskId === first.taskId && ['RunEnd', 'RunCancelled'].includes(w.event.type));
      expect(terminals.map((w) => w.event.type)).toEqual(['RunEnd']);
      expect(answers).toEqual([false]);
      const prompt = first.event.type === 'RunEnd' ? first.event.text.replace('done ', '') : '';
      expect(resultOf(own(events, 'ToolCallEnd')[0]!.text, first.taskId)).toMatchObject({ status: 'success', content: `done ${prompt}` });
      expect(engine.tasks.get(first.taskId)).toMatchObject({ state: 'done', result: `done ${prompt}` });
      expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
    });
  }

  it('unsubscribing the parent at a child\'s RunEnd records that child done, with its text and metrics; the unfinished sibling is cancelled', async () => {
    f = await startDelegationFixture({ main: steps(multitaskReply(jobs)), alpha: (t) => (t.prompt === 'job 1' ? { text: 'done job 1', usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } } : { hang: true }) });
    const engine = f.engine({}, [testAgent('alpha')]);
    let finished = '';
    const unsubscribed = new Promise<void>((resolve) => {
      const subscription = engine.stream('go').subscribe((e) => {
        if (!isChildEnd(e) || finished) return;
        finished = e.taskId;
        // In the RunEnd's own tick: the child's stream has not completed yet.
        subscription.unsubscribe();
        resolve();
      });
    });
    await unsubscribed;
    expect(engine.tasks.get(finished)).toMatchObject({ state: 'done', result: 'done job 1', metrics: { promptTokens: 7, completionTokens: 3 } });
    const sibling = engine.tasks.list().find((t) => t.taskId !== finished)!;
    expect(sibling).toMatchObject({ state: 'cancelled', result: expect.stringMatching(/parent run was cancelled/) });
  });
});
