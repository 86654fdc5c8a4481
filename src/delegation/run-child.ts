import { Observable, ReplaySubject, type Subscription } from 'rxjs';
import type { ReActAgent } from '../agent/react-agent.js';
import type { RunInput } from '../agent/run-scope.js';
import { trustedEmit } from '../agent/trusted-emit.js';
import type { AgentEvent, TaskWrapEvent } from '../events/agent-event.js';
import { EMPTY_METRICS, type RunMetrics } from '../events/run-metrics.js';
import type { ToolContext } from '../tools/tool.js';
import type { AgentSpec } from './delegation-types.js';
import { cancelledTask, superviseChild, type Ended } from './supervise-child.js';
import { failedTask, type TaskOutcome } from './task-result-format.js';
import { TaskRefusedError } from './task-refused-error.js';
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
  /** The child's place in the tree, which `agent` was built from (a launcher elsewhere rebuilds it). */
  readonly spec: AgentSpec;
  /** Where the child runs; absent: here, through `agent`. */
  readonly launcher?: ChildLauncher;
}

/**
 * Runs a child somewhere else than this process (a worker, through a backend): its events
 * as `agent.run$` would emit them here, in order, the `RunEnd` last, then completion (or an
 * error the task turns into a failure result). Unsubscribing must stop the child wherever
 * it runs. Everything around it (wrapping, the tracker, usage, cancel by id) stays here.
 *
 * @example
 * ```ts
 * const launcher: ChildLauncher = { run$: (child, streaming) => child.agent.run$(child.prompt, { sessionId: child.taskId, streaming }) };
 * ```
 */
export interface ChildLauncher {
  /** The child's events; `streaming` false: only its lifecycle, as under `call()`. */
  run$(child: ChildRun, streaming: boolean): Observable<AgentEvent>;
}

/**
 * Runs a child agent in its own session (named by the task id) and emits its outcome once.
 * While the parent is streamed, each child event goes out through `parent.emit`, wrapped in
 * a `TaskWrap`, in the child's order; otherwise the child runs quiet. The child's usage is
 * added to the parent's metrics, with one more task. The task is registered with the
 * tracker, so cancelling it by id stops just this child and settles it as a failure.
 * Unsubscribing stops the child. Its first `RunEnd` finishes the task in the tracker at once,
 * before it goes out: from then on a cancel by id answers false and an unsubscribe keeps its
 * answer, so the child's run has exactly one terminal event. That `RunEnd` is also the
 * outcome: the child's stream is unsubscribed then (stopping whatever it still runs), so a
 * launcher whose stream never completes after it does not hold up the parent's call.
 */
export function runChild$(c: ChildRun): Observable<TaskOutcome> {
  return new Observable<TaskOutcome>((out) => {
    const { parent, taskId } = c;
    // Every child event goes out wrapped: built here, so delivered without the check and copy of a user tool's emit.
    const emit = trustedEmit(parent);
    const stop$ = new ReplaySubject<void>(1);
    let childRunId = '';
    let settled = false; // the task's outcome is decided (its RunEnd, a cancel, an unsubscribe): once
    // What the child has spent so far (a child here; one on a worker reports only in its RunEnd).
    let spent: (() => RunMetrics) | undefined;
    // The parent's metrics and the tracker: once per task.
    const record = ({ outcome, state, metrics }: Ended): void => {
      parent.addMetrics(withTask(metrics));
      c.tracker.finish(taskId, state, outcome.content, metrics);
    };
    const finish = (how: Ended): void => {
      out.next(how.outcome);
      out.complete();
    };
    const settle = (how: Ended): void => {
      if (settled) return;
      settled = true;
      record(how);
      finish(how);
    };
    const wrap = (event: AgentEvent): TaskWrapEvent => ({
      type: 'TaskWrap',
      runId: childRunId,
      agentName: c.agent.name,
      parentRunId: parent.runId,
      taskId,
      taskIndex: c.index,
      taskAgentName: c.agent.name,
      taskDescription: c.description,
      multitask: c.multitask,
      event,
    });
    const onEvent = (event: AgentEvent, end?: Ended): void => {
      if (settled) return; // nothing of a cancelled child may follow its result
      if (event.type === 'RunStart') childRunId = event.runId;
      if (!end) {
        if (parent.streaming) emit(wrap(event));
        return;
      }
      // Recorded before it goes out: a consumer reacting to it finds the task finished, so
      // `cancelTask` answers false, and unsubscribing then keeps the child's answer.
      settled = true;
      record(end);
      if (parent.streaming) emit(wrap(event));
      // The answer is given now, not at the stream's end, which may never come (a launcher
      // elsewhere): the stream is cut first, so what the child still holds (its session, a
      // worker's job) is let go before the parent goes on.
      stop$.next();
      finish(end);
    };
    // Throws (an error result, nothing started) when this task id is running already.
    // The cancel may come re-entrantly (a `changes` subscriber, or a consumer reacting to the
    // child's first event) before the child's subscription exists: stop$ replays it.
    c.tracker.start(info(c, false), () => {
      if (settled) return void stop$.next();
      // The consumer's last word on this task: a wrapped RunCancelled (never a fake RunEnd).
      if (parent.streaming && childRunId) emit(wrap(cancelledEvent(c, childRunId)));
      settled = true; // before the stop: the completion it causes is not the task's outcome
      stop$.next(); // the child's subtree stops, each task adding what it spent to its parent
      const how: Ended = { outcome: cancelledTask(c.agent.name, taskId), state: 'cancelled', metrics: spent?.() }; // so the usage of a cancelled child still counts
      record(how);
      finish(how);
    });
    const subscription = superviseChild(c.agent.name, childRun$(c, parent.streaming, (read) => (spent = read)), stop$, { event: onEvent, settle });
    return () => {
      subscription.unsubscribe();
      if (settled) return;
      settled = true;
      // An unsubscribed parent drops the task: nothing is emitted; the tracker records why. What
      // it spent goes to the parent, which counts it if it is itself a task cancelled by id.
      const metrics = spent?.();
      parent.addMetrics(withTask(metrics));
      c.tracker.finish(taskId, 'cancelled', failedTask('the parent run was cancelled.').content, metrics);
    };
  });
}

/**
 * Starts a child detached from its parent: not wrapped into the parent's stream, not
 * stopped by the parent's end or unsubscribe, its events kept in the tracker's log and its
 * usage kept with the task. Only cancelling the task (or closing the engine) stops it. Its logged
 * `RunEnd` finishes it, though its stream may complete later (a worker's): a cancel then answers false,
 * and closing the engine still unsubscribes the stream (its answer kept), so none outlives the engine.
 *
 * @throws TaskRefusedError when the tracker is closed (the engine was closed), or the task is running.
 */
export function launchBackground(c: ChildRun): TaskOutcome {
  // Nothing would stop a task started after close(): refuse it instead.
  if (c.tracker.closed) throw new TaskRefusedError('the engine is closed, so no background task can start');
  const stop$ = new ReplaySubject<void>(1);
  let childRunId = '';
  let stopped = false;
  let ended = false; // its RunEnd was logged and recorded: the task has finished
  // From its RunEnd until its stream ends: the tracker's close, which no longer cancels the finished task, still stops it.
  let untilClose: Subscription | undefined;
  // What the child has spent so far (a child here; one on a worker reports only in its RunEnd).
  let spent: (() => RunMetrics) | undefined;
  c.tracker.start(info(c, true), () => {
    if (stopped) return; // (never called after the RunEnd: the finish forgot it, so `cancelTask` answers false)
    stopped = true; // before the stop: the completion it causes is not the task's outcome
    if (childRunId) c.tracker.log(c.taskId, cancelledEvent(c, childRunId));
    stop$.next(); // the child's subtree stops, each task adding what it spent to its parent
    c.tracker.finish(c.taskId, 'cancelled', cancelledTask(c.agent.name, c.taskId).content, spent?.()); // so its usage stays with the task
  });
  c.parent.addMetrics({ ...EMPTY_METRICS, tasks: 1 });
  // Its whole stream goes to the tracker's log, deltas included.
  superviseChild(c.agent.name, childRun$(c, true, (read) => (spent = read)), stop$, {
    // Nothing comes after its RunEnd (superviseChild drops it): the log keeps one terminal event.
    event: (event, end) => {
      if (event.type === 'RunStart') childRunId = event.runId;
      c.tracker.log(c.taskId, event);
      if (!end) return;
      // Recorded as it is logged, before anyone reads it, though the stream may complete later (a
      // worker's): a cancel by id answers false, the log keeps one terminal event, the task its answer.
      ended = true;
      c.tracker.finish(c.taskId, end.state, end.outcome.content, end.metrics);
      // The finish forgot the cancel, yet the stream may never complete (a launcher elsewhere):
      // `changes` completes as the tracker closes (at once if it has), which stops it then.
      untilClose = c.tracker.changes.subscribe({ complete: () => stop$.next() });
    },
    settle: ({ outcome, state, metrics }) => {
      untilClose?.unsubscribe(); // the stream's own end releases the watch on the close
      if (!stopped && !ended) c.tracker.finish(c.taskId, state, outcome.content, metrics);
    },
  });
  return {
    status: 'running',
    content: `Started in the background as ${c.taskId}. Its result will be put in front of your next prompt in this session.`,
  };
}

/** The child's events: from its launcher, or its agent run here (`meter` reads what it spends). */
function childRun$(c: ChildRun, streaming: boolean, meter: NonNullable<RunInput['meter']>): Observable<AgentEvent> {
  return c.launcher ? c.launcher.run$(c, streaming) : c.agent.run$(c.prompt, { sessionId: c.taskId, streaming, meter });
}

/** A child's metrics as its parent adds them: one more task (none known: only the task). */
function withTask(metrics: RunMetrics | undefined): RunMetrics {
  return metrics ? { ...metrics, tasks: metrics.tasks + 1 } : { ...EMPTY_METRICS, tasks: 1 };
}

function info(c: ChildRun, background: boolean) {
  const { parent } = c;
  return { taskId: c.taskId, agentName: c.agent.name, description: c.description, sessionId: parent.rootSessionId, parentRunId: parent.runId, background };
}

function cancelledEvent(c: ChildRun, runId: string): AgentEvent {
  return { type: 'RunCancelled', runId, agentName: c.agent.name, reason: `the task ${c.taskId} was cancelled before it finished` };
}
