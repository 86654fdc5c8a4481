import { Observable } from 'rxjs';
import type { AgentEvent, RunEndEvent, TaskWrapEvent } from '../events/agent-event.js';
import type { ReActAgent } from '../agent/react-agent.js';
import type { ToolContext } from '../tools/tool.js';
import type { TaskOutcome } from './task-result-format.js';
import type { TaskTracker } from './task-tracker.js';

/** One child run of a task. */
export interface ChildRun {
  readonly agent: ReActAgent;
  readonly prompt: string;
  readonly taskId: string;
  readonly index: number;
  readonly description: string;
  readonly multitask: boolean;
  /** The delegating call's context: where wrapped events and usage go. */
  readonly parent: ToolContext;
  readonly tracker: TaskTracker;
}

/**
 * Runs a child agent in its own session (named by the task id) and emits its outcome once.
 * While the parent is streamed, each child event goes out through `parent.emit`, wrapped in
 * a `TaskWrap`, in the child's order; otherwise the child runs quiet. The child's usage is
 * added to the parent's metrics, with one more task. The task is registered with the
 * tracker, so `cancel` by id stops just this child and settles it as a failure.
 * Unsubscribing stops the child.
 */
export function runChild$(c: ChildRun): Observable<TaskOutcome> {
  return new Observable<TaskOutcome>((out) => {
    const { parent, agent, taskId } = c;
    let childRunId = '';
    let end: RunEndEvent | undefined;
    const settle = (outcome: TaskOutcome, state: 'done' | 'failed' | 'cancelled'): void => {
      parent.addMetrics(end ? { ...end.metrics, tasks: end.metrics.tasks + 1 } : { ...ZERO, tasks: 1 });
      c.tracker.finish(taskId, state, outcome.content, end?.metrics);
      out.next(outcome);
      out.complete();
    };
    const wrap = (event: AgentEvent): TaskWrapEvent => ({
      type: 'TaskWrap',
      runId: childRunId,
      agentName: agent.name,
      parentRunId: parent.runId,
      taskId,
      taskIndex: c.index,
      taskAgentName: agent.name,
      taskDescription: c.description,
      multitask: c.multitask,
      event,
    });
    c.tracker.start(
      { taskId, agentName: agent.name, description: c.description, sessionId: parent.rootSessionId, parentRunId: parent.runId, background: false },
      () => {
        subscription.unsubscribe();
        settle({ status: 'failure', content: `ERROR: the ${agent.name} task ${taskId} was cancelled before it finished.` }, 'cancelled');
      },
    );
    const subscription = agent.stream(c.prompt, { sessionId: taskId, quiet: !parent.streaming }).subscribe({
      next: (event) => {
        if (event.type === 'RunStart') childRunId = event.runId;
        else if (event.type === 'RunEnd') end = event;
        if (parent.streaming) parent.emit(wrap(event));
      },
      error: (e: unknown) => {
        const why = e instanceof Error ? e.message : String(e);
        settle({ status: 'failure', content: `ERROR: the ${agent.name} task failed: ${why}` }, 'failed');
      },
      complete: () => {
        if (!end || end.abnormal) {
          const why = end?.error ?? 'it ended without a result';
          const partial = end?.text ? `\nIts last text was:\n${end.text}` : '';
          settle({ status: 'failure', content: `ERROR: the ${agent.name} task ended abnormally: ${why}${partial}` }, 'failed');
        } else {
          settle({ status: 'success', content: end.text }, 'done');
        }
      },
    });
    return () => {
      subscription.unsubscribe();
      // An unsubscribed parent drops the task: nothing is emitted, the tracker forgets it.
      c.tracker.finish(taskId, 'cancelled', 'ERROR: the parent run was cancelled.');
    };
  });
}

const ZERO = { promptTokens: 0, completionTokens: 0, totalTokens: 0, durationMs: 0, tasks: 0 };
