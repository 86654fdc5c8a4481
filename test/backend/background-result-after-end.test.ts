/**
 * A worker records a background task's result itself (its engine may be gone) by the rule of
 * an engine's own children: a child's `RunEnd` is its answer, whatever ended its log after
 * it. A cancel or a failure after the `RunEnd` turned the worker's record `cancelled` or
 * `failed` while the engine that launched it recorded `done`. Each ending, after a `RunEnd`
 * or without one, is checked against what an engine's tracker records for the same stream.
 */
import { concat, Observable, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { backgroundResult } from '../../src/backend/background-result.js';
import type { TaskJob } from '../../src/backend/task-job.js';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentSpec } from '../../src/delegation/delegation-types.js';
import { launchBackground, type ChildRun } from '../../src/delegation/run-child.js';
import { TaskTracker } from '../../src/delegation/task-tracker.js';
import type { AgentEvent, RunEndEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { PermissionPolicy } from '../../src/permission/permission-policy.js';
import type { LogEnding } from '../../src/runs/run-types.js';
import { createToolContext } from '../support/tool-context.js';

const TASK = 'task_w';
const runStart: AgentEvent = { type: 'RunStart', runId: 'run_w', agentName: 'alpha', sessionId: TASK, prompt: 'job' };
const answered: RunEndEvent = { type: 'RunEnd', runId: 'run_w', agentName: 'alpha', text: 'alpha answered', abnormal: false, metrics: { ...EMPTY_METRICS, promptTokens: 9 }, steps: 1 };
const broken: RunEndEvent = { ...answered, text: 'half', abnormal: true, error: 'the model failed' };

/** The part of a background job its result is made of. */
const job = { spec: { task: { taskId: TASK, rootSessionId: 's1', background: true } }, description: 'job', parentRunId: 'run_p' } as unknown as TaskJob;

/** What a worker records for a child whose log ended `ending` after `end` (none: no RunEnd). */
function onWorker(end: RunEndEvent | undefined, ending: LogEnding) {
  const { state, result, metrics } = backgroundResult(job, 'alpha', ending, end, Date.now());
  return { state, result, metrics };
}

/** What an engine's tracker records for a background child whose stream ends the same way. */
async function inProcess(end: RunEndEvent | undefined, ending: LogEnding) {
  const events = end ? [runStart, end] : [runStart];
  let stop = (): void => undefined;
  const tail = new Observable<AgentEvent>((out) => {
    if (ending.kind === 'complete') out.complete();
    else if (ending.kind === 'failed') out.error(new Error(ending.message));
    else stop = () => void tracker.cancel(TASK); // cancelled: by id, while the stream is open
  });
  const model = new ScriptedModel([]);
  const spec: AgentSpec = { name: 'alpha', depth: 1, model, instructions: '', toolNames: [], policy: new PermissionPolicy({ rules: [] }), maxSteps: 3 };
  const tracker = new TaskTracker();
  const child: ChildRun = {
    agent: new ReActAgent({ name: 'alpha', model }),
    spec,
    launcher: { run$: () => concat(new Observable<AgentEvent>((out) => (events.forEach((e) => out.next(e)), out.complete())), tail) },
    prompt: 'job',
    taskId: TASK,
    index: 1,
    description: 'job',
    multitask: false,
    parent: createToolContext({ rootSessionId: 's1' }),
    tracker,
  };
  launchBackground(child);
  stop();
  const { state, result, metrics } = (await tracker.whenSettled(TASK))!;
  await tracker.close();
  return { state, result, metrics };
}

const complete: LogEnding = { kind: 'complete' };
const failed: LogEnding = { kind: 'failed', message: 'the worker shut down' };
const cancelled: LogEnding = { kind: 'cancelled', reason: 'the task was cancelled' };
/** The endings that come after a RunEnd only when something stopped the child too late. */
const late: [string, LogEnding][] = [
  ['failed', failed],
  ['cancelled', cancelled],
];

describe("a worker's background result follows the rule of an engine's children", () => {
  it.each(late)("after a RunEnd, a log ended %s keeps the RunEnd's answer", (_, ending) => {
    expect(onWorker(answered, ending)).toEqual({ state: 'done', result: 'alpha answered', metrics: answered.metrics });
  });

  it.each(late)('after an abnormal RunEnd, a log ended %s is that failure', (_, ending) => {
    expect(onWorker(broken, ending)).toEqual({ state: 'failed', result: expect.stringContaining('ended abnormally: the model failed'), metrics: broken.metrics });
  });

  it("records every ending, after a RunEnd or without one, as an engine's tracker does", async () => {
    for (const end of [answered, broken, undefined]) {
      for (const ending of [complete, failed, cancelled]) {
        expect({ end: end?.text, ending: ending.kind, ...onWorker(end, ending) }).toEqual({ end: end?.text, ending: ending.kind, ...(await inProcess(end, ending)) });
      }
    }
  });
});
