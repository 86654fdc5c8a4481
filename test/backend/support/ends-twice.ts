/**
 * A child agent that ends its run twice, and the one job of it a worker runs: the setup the
 * tests of a worker's "first `RunEnd` is the child's last event" rule share.
 *
 * @module
 */
import { Observable } from 'rxjs';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { RedisBackend } from '../../../src/backend/redis-backend.js';
import type { TaskJob } from '../../../src/backend/task-job.js';
import { runJob, type RunningJob } from '../../../src/backend/worker-job.js';
import type { AgentEvent } from '../../../src/events/agent-event.js';
import type { RunMetrics } from '../../../src/events/run-metrics.js';
import { ScriptedModel } from '../../../src/model/scripted-model.js';

/** What a child that ends twice emits, and the job it runs as. */
export interface EndsTwiceOptions {
  /** The task's id (its log is `<taskId>.0001`). */
  readonly taskId: string;
  /** The session of the run that launched the task (where a background result is delivered). */
  readonly rootSessionId: string;
  /** Whether the job is a background task (its result recorded by the worker). */
  readonly background: boolean;
  /** The child run's id. */
  readonly runId: string;
  /** The metrics of both `RunEnd`s. */
  readonly metrics: RunMetrics;
  /** The events between the first `RunEnd` and the second, given the child's ids. */
  readonly between?: (ids: { runId: string; agentName: string }) => AgentEvent[];
  /** The two answers, first and second. */
  readonly answers: readonly [string, string];
}

/** An agent named `alpha` whose run emits RunStart, a RunEnd, `between`, a second RunEnd, then completes. */
class EndsTwice extends ReActAgent {
  constructor(private readonly options: EndsTwiceOptions) {
    super({ name: 'alpha', model: new ScriptedModel([]) });
  }

  override run$(prompt: string): Observable<AgentEvent> {
    const { taskId, runId, metrics, between, answers } = this.options;
    return new Observable<AgentEvent>((out) => {
      const ids = { runId, agentName: 'alpha' };
      const end = (text: string): AgentEvent => ({ ...ids, type: 'RunEnd', text, abnormal: false, metrics, steps: 1 });
      out.next({ ...ids, type: 'RunStart', sessionId: taskId, prompt });
      out.next(end(answers[0]));
      for (const e of between?.(ids) ?? []) out.next(e);
      out.next(end(answers[1]));
      out.complete();
    });
  }
}

/**
 * The part of a job that a worker reads, for task `taskId` launched from session
 * `rootSessionId`; its log is `<taskId>.0001`.
 */
export function workerJob(taskId: string, rootSessionId: string, background: boolean): TaskJob {
  return {
    logId: `${taskId}.0001`,
    spec: { name: 'alpha', task: { taskId, rootSessionId, rootRunId: 'run_root', background } },
    prompt: 'job',
    description: 'job',
    parentRunId: 'run_root',
    streaming: false,
    queuedAt: Date.now(),
    taskStartedAt: Date.now(),
  } as unknown as TaskJob;
}

/**
 * Opens the job's log, has a worker run the child of `options` as that job to its end, and
 * returns the job.
 */
export async function runEndsTwice({ parts, eventLog }: RedisBackend, options: EndsTwiceOptions): Promise<TaskJob> {
  const job = workerJob(options.taskId, options.rootSessionId, options.background);
  await eventLog.open(job.logId, options.taskId);
  await runJob(parts, job, new EndsTwice(options), undefined, new Map<string, RunningJob>(), new AbortController().signal);
  return job;
}
