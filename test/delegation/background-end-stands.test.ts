/**
 * A background child whose `RunEnd` was logged has ended, even while its stream has not
 * completed yet (a launcher elsewhere, a worker's, completes when it reads the log's end):
 * a cancel by id then answers false, the log keeps one terminal event, and neither the
 * cancel nor an error of the stream afterwards changes the task's answer.
 */
import { concat, Observable, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentSpec } from '../../src/delegation/delegation-types.js';
import { launchBackground, type ChildLauncher, type ChildRun } from '../../src/delegation/run-child.js';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { createToolContext } from '../support/tool-context.js';

/**
 * A background alpha run here through a launcher whose stream goes on past the child's
 * `RunEnd` until `tail` completes or errors: a worker's task whose log's end is still to be read.
 */
function lateEndingChild() {
  const model = new ScriptedModel([{ text: 'alpha answered', usage: { promptTokens: 7, completionTokens: 3 } }]);
  const agent = new ReActAgent({ name: 'alpha', model });
  const spec: AgentSpec = { name: 'alpha', depth: 1, model, instructions: '', toolNames: [], policy: new PermissionPolicy({ rules: [] }), maxSteps: 3 };
  const tail = new Subject<AgentEvent>();
  const launcher: ChildLauncher = {
    run$: (child, streaming) => concat(child.agent.run$(child.prompt, { sessionId: child.taskId, streaming }), tail as Observable<AgentEvent>),
  };
  const tracker = new TaskTracker();
  const parent = createToolContext({ rootSessionId: 's1' });
  const child: ChildRun = { agent, spec, launcher, prompt: 'job', taskId: 'task_late', index: 1, description: 'late job', multitask: false, parent, tracker };
  return { tail, tracker, child, parent };
}

const terminals = (events: readonly AgentEvent[]) => events.filter((e) => e.type === 'RunEnd' || e.type === 'RunCancelled').map((e) => e.type);

/** Starts the child and waits until its RunEnd is in the log (its stream not completed). */
async function startedToItsEnd(tracker: TaskTracker, child: ChildRun): Promise<void> {
  expect(launchBackground(child).status).toBe('running');
  await expect.poll(() => terminals(tracker.events(child.taskId))).toEqual(['RunEnd']);
}

describe('a background child whose RunEnd is logged has ended', () => {
  it('is done at its RunEnd; cancelTask then answers false, the log keeps one terminal, the answer stands', async () => {
    const { tail, tracker, child, parent } = lateEndingChild();
    await startedToItsEnd(tracker, child);
    // A consumer reading the log reacts to the RunEnd by cancelling: too late, nothing changes.
    expect(tracker.cancel(child.taskId)).toBe(false);
    expect(terminals(tracker.events(child.taskId))).toEqual(['RunEnd']);
    expect(tracker.get(child.taskId)).toMatchObject({ state: 'done', result: 'alpha answered', metrics: { promptTokens: 7, completionTokens: 3 } });
    tail.complete();
    expect(terminals(tracker.events(child.taskId))).toEqual(['RunEnd']);
    expect(await tracker.whenSettled(child.taskId)).toMatchObject({ state: 'done', result: 'alpha answered' });
    // The parent counted the task once, at its start; its usage stays with the task.
    expect(parent.metrics.map((m) => [m.tasks, m.promptTokens])).toEqual([[1, 0]]);
  });

  it("an error of its stream after the RunEnd (the worker's log lost) does not turn it failed: its answer stands, as a foreground child's does", async () => {
    const { tail, tracker, child } = lateEndingChild();
    await startedToItsEnd(tracker, child);
    tail.error(new Error('the log of the task was lost'));
    expect(terminals(tracker.events(child.taskId))).toEqual(['RunEnd']);
    expect(await tracker.whenSettled(child.taskId)).toMatchObject({ state: 'done', result: 'alpha answered', metrics: { promptTokens: 7 } });
  });

  it('engine close (cancel of every background task) after the RunEnd leaves it done', async () => {
    const { tail, tracker, child } = lateEndingChild();
    await startedToItsEnd(tracker, child);
    await tracker.close();
    tail.complete();
    expect(terminals(tracker.events(child.taskId))).toEqual(['RunEnd']);
    expect(tracker.get(child.taskId)).toMatchObject({ state: 'done', result: 'alpha answered' });
  });
});
