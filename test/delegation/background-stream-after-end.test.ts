/**
 * A background child is finished at its logged `RunEnd`, but its stream may go on (a launcher
 * elsewhere completes when it reads the log's end, or never): closing the engine still
 * unsubscribes that stream, keeping the answer, and a stream that ends by itself leaves
 * nothing subscribed.
 */
import { Observable, type Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentSpec } from '../../src/delegation/delegation-types.js';
import { launchBackground, type ChildLauncher, type ChildRun } from '../../src/delegation/run-child.js';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import { createToolContext } from '../support/tool-context.js';

/** What a launcher's stream did: how many subscribed, how many were torn down. */
interface Counts {
  subscribed: number;
  tornDown: number;
}

/**
 * A launcher whose stream emits the child's `RunStart` and `RunEnd`, then completes only if
 * `completes` (else never: a remote child whose log's end never comes), counting teardowns.
 */
function launcherOf(completes: boolean, counts: Counts): ChildLauncher {
  return {
    run$: (child) =>
      new Observable<AgentEvent>((out) => {
        counts.subscribed += 1;
        const base = { runId: `run_${child.taskId}`, agentName: child.agent.name };
        out.next({ ...base, type: 'RunStart', sessionId: child.taskId, prompt: child.prompt });
        out.next({ ...base, type: 'RunEnd', text: `${child.taskId} answered`, abnormal: false, metrics: { ...EMPTY_METRICS, promptTokens: 5 }, steps: 1 });
        if (completes) out.complete();
        return () => void (counts.tornDown += 1);
      }),
  };
}

function childOf(tracker: TaskTracker, taskId: string, launcher: ChildLauncher): ChildRun {
  const model = new ScriptedModel([]);
  const agent = new ReActAgent({ name: 'alpha', model });
  const spec: AgentSpec = { name: 'alpha', depth: 1, model, instructions: '', toolNames: [], policy: new PermissionPolicy({ rules: [] }), maxSteps: 3 };
  const parent = createToolContext({ rootSessionId: 's1' });
  return { agent, spec, launcher, prompt: 'job', taskId, index: 1, description: 'job', multitask: false, parent, tracker };
}

const terminals = (events: readonly AgentEvent[]) => events.filter((e) => e.type === 'RunEnd' || e.type === 'RunCancelled').map((e) => e.type);

/** Whether anything still listens to the tracker's changes (the Subject behind `asObservable()`). */
const listened = (tracker: TaskTracker): boolean => (tracker.changes as unknown as { source: Subject<unknown> }).source.observed;

describe("a background child's stream after its RunEnd", () => {
  it('is unsubscribed by the engine close when it never completes; cancelTask still answers false; the answer stands', async () => {
    const tracker = new TaskTracker();
    const counts: Counts = { subscribed: 0, tornDown: 0 };
    const child = childOf(tracker, 'task_open', launcherOf(false, counts));
    launchBackground(child);
    expect(tracker.get('task_open')).toMatchObject({ state: 'done', result: 'task_open answered' });
    // Too late to cancel: false, no event, and the stream is not torn down by it.
    expect(tracker.cancel('task_open')).toBe(false);
    expect(terminals(tracker.events('task_open'))).toEqual(['RunEnd']);
    expect(counts).toEqual({ subscribed: 1, tornDown: 0 });
    await tracker.close();
    // The engine's close stopped the stream it no longer cancels as a task.
    expect(counts).toEqual({ subscribed: 1, tornDown: 1 });
    expect(terminals(tracker.events('task_open'))).toEqual(['RunEnd']);
    expect(tracker.get('task_open')).toMatchObject({ state: 'done', result: 'task_open answered', metrics: { promptTokens: 5 } });
    expect(listened(tracker)).toBe(false);
  });

  it('leaves nothing subscribed once its stream completes by itself, and the close tears down only what still runs', async () => {
    const tracker = new TaskTracker();
    const ended: Counts = { subscribed: 0, tornDown: 0 };
    launchBackground(childOf(tracker, 'task_ended', launcherOf(true, ended)));
    // Finished and released: its stream torn down once, no watch left on the tracker.
    expect(ended).toEqual({ subscribed: 1, tornDown: 1 });
    expect(listened(tracker)).toBe(false);
    const open: Counts = { subscribed: 0, tornDown: 0 };
    launchBackground(childOf(tracker, 'task_open', launcherOf(false, open)));
    await tracker.close();
    expect([ended.tornDown, open.tornDown]).toEqual([1, 1]);
    expect(tracker.list().map((t) => [t.taskId, t.state])).toEqual([
      ['task_ended', 'done'],
      ['task_open', 'done'],
    ]);
  });
});
