/**
 * A worker records a background task's result itself (its engine may be gone) by the rule of
 * an engine's own children: the child's FIRST `RunEnd` is its answer. The worker kept the
 * last one it saw, so a child that ended twice (a hostile or broken agent) had one answer in
 * the engine that launched it and another in the result the worker delivered.
 */
import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { TaskJob } from '../../src/backend/task-job.js';
import { runJob, type RunningJob } from '../../src/backend/worker-job.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const TASK = 'task_twice';
const SESSION = 'ses_twice';

/** An agent whose run ends twice, each `RunEnd` with its own answer, then completes. */
class EndsTwice extends ReActAgent {
  constructor() {
    super({ name: 'alpha', model: new ScriptedModel([]) });
  }

  override run$(prompt: string): Observable<AgentEvent> {
    return new Observable<AgentEvent>((out) => {
      const ids = { runId: 'run_twice', agentName: 'alpha' };
      const end = (text: string): AgentEvent => ({ ...ids, type: 'RunEnd', text, abnormal: false, metrics: { ...EMPTY_METRICS, promptTokens: 4 }, steps: 1 });
      out.next({ ...ids, type: 'RunStart', sessionId: TASK, prompt });
      out.next(end('first answer'));
      out.next(end('second answer'));
      out.complete();
    });
  }
}

/** The part of a background job that the worker reads. */
const job = {
  logId: `${TASK}.0001`,
  spec: { name: 'alpha', task: { taskId: TASK, rootSessionId: SESSION, rootRunId: 'run_root', background: true } },
  prompt: 'job',
  description: 'job',
  parentRunId: 'run_root',
  streaming: false,
  queuedAt: Date.now(),
  taskStartedAt: Date.now(),
} as unknown as TaskJob;

describe.skipIf(!HAS_REDIS)('a worker running a child that ends twice', () => {
  const fixture = redisBackendPerFile('worker-first-end:', 60_000);

  it("delivers the first RunEnd's answer as the background result, as the launching engine records it", async () => {
    const { parts, eventLog } = fixture.backend;
    await eventLog.open(job.logId, TASK);
    await runJob(parts, job, new EndsTwice(), undefined, new Map<string, RunningJob>(), new AbortController().signal);
    const waiting = Object.values(await parts.redis.hgetall(parts.keys.results(SESSION))).join('\n');
    expect(waiting).toContain('first answer');
    expect(waiting).not.toContain('second answer');
  });
});
