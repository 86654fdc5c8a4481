import { TaskState } from '@a2a-js/sdk';
import { AgentEvent as A2AEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { DeltaCoalescer } from '../../delegation/a2a/delta-coalescer.js';
import { AbortError } from '../../errors/abort-error.js';
import { errorMessage } from '../../errors/error-message.js';
import type { RunHandle } from '../../runs/run-registry.js';
import { agentMessage, statusOf } from './a2a-values.js';
import { RunUpdates } from './run-updates.js';

/** The key under which the HTTP handler leaves the run it started for a request in the call context's state. */
export const STARTED_RUN_KEY = 'rxharness.run';

/** A run the handler started for one request, and whether the executor has taken it. */
export interface StartedRun {
  readonly run: RunHandle;
  claimed: boolean;
}

/**
 * The A2A `AgentExecutor` of the engine: each message runs the main agent (the run the
 * handler started for it, so a busy session and the run cap were answered before the SDK
 * saw the request), and its events become the task's updates ({@link RunUpdates}). The
 * task ends with exactly one terminal status. `tasks/cancel` cancels the run, which aborts
 * its model requests and children, and the task ends `canceled`.
 */
export class RunExecutor implements AgentExecutor {
  readonly #running = new Map<string, { readonly run: RunHandle; ended: boolean }>();

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = request;
    const started = request.context.state.get(STARTED_RUN_KEY) as StartedRun | undefined;
    if (started === undefined) throw new Error('no run was started for this message (the A2A executor runs only behind a2aHandler)');
    started.claimed = true;
    const entry = { run: started.run, ended: false };
    this.#running.set(taskId, entry);
    const updates = new RunUpdates(taskId, contextId);
    bus.publish(A2AEvent.task({ id: taskId, contextId, status: statusOf(TaskState.TASK_STATE_WORKING), artifacts: [], history: [request.userMessage], metadata: { rxharness: { runId: started.run.runId } } }));
    const publish = (event: ReturnType<RunUpdates['of']>[number]): void => {
      if (!entry.ended) bus.publish(event);
    };
    // The answer's deltas, at most one chunk per 100 ms (the first at once): the SDK copies the
    // whole task, every chunk so far, into and out of its store for each update, so a chunk
    // per delta made a long answer quadratic (2,000 deltas held the event loop for a minute).
    const answer = new DeltaCoalescer((delta) => updates.of(delta).forEach(publish));
    try {
      await new Promise<void>((resolve) => {
        started.run.events$.subscribe({
          next: ({ event }) => {
            if (event.type === 'ReasonDelta' && event.kind === 'text') return answer.add(event);
            answer.flush(); // in order: the text before what follows it
            for (const update of updates.of(event)) publish(update);
            if (event.type === 'RunEnd' || event.type === 'RunCancelled') entry.ended = true;
          },
          error: (error: unknown) => {
            answer.flush();
            // Cancelled elsewhere (the page's Stop, engine.close()): the task is canceled, not failed.
            const cancelled = AbortError.isInstance(error);
            publish(updates.status(cancelled ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_FAILED, `The run ${cancelled ? 'was cancelled' : 'failed'}: ${errorMessage(error)}`));
            entry.ended = true;
            resolve();
          },
          complete: () => {
            answer.flush();
            // A log that ends without a terminal event (evicted, say) still ends the task once.
            publish(updates.status(TaskState.TASK_STATE_FAILED, 'The run ended without a result.'));
            entry.ended = true;
            resolve();
          },
        });
      });
    } finally {
      answer.close();
      this.#running.delete(taskId);
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const entry = this.#running.get(taskId);
    if (entry === undefined || entry.ended) return;
    // The terminal status first and once: the run's own RunCancelled, which follows, is not published again.
    entry.ended = true;
    const contextId = entry.run.sessionId;
    bus.publish(
      A2AEvent.statusUpdate({
        taskId,
        contextId,
        status: statusOf(TaskState.TASK_STATE_CANCELED, agentMessage(taskId, contextId, 'The run was cancelled (tasks/cancel).')),
        metadata: undefined,
      }),
    );
    entry.run.cancel();
  }
}
