/**
 * A worker that starts a job late, after its launcher gave the job up: the launcher removed it
 * from the queue (BullMQ removes an active job whose lock lapsed, its worker alive but slow)
 * and ended its log while it held nothing but its open marker (`endIfUnstarted`). The worker
 * wrote its events after that end, until the cancel reached it. Its first write now checks,
 * in one script, that the log is not ended: it stops without writing anything.
 */
import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { TaskJob } from '../../src/backend/task-job.js';
import { endIfUnstarted } from '../../src/backend/unstarted-log-end.js';
import { runJob, type RunningJob } from '../../src/backend/worker-job.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { workerJob } from './support/ends-twice.js';

const SESSION = 'ses_late';

/** An agent whose run starts, then (a little later, as after a model request) reasons, answers and completes; `emitted` counts those later steps. */
class Answers extends ReActAgent {
  emitted = 0;
  constructor() {
    super({ name: 'alpha', model: new ScriptedModel([]) });
  }

  override run$(prompt: string, options: { sessionId?: string } = {}): Observable<AgentEvent> {
    return new Observable<AgentEvent>((out) => {
      const ids = { runId: `run_${options.sessionId ?? 'x'}`, agentName: 'alpha' };
      out.next({ ...ids, type: 'RunStart', sessionId: options.sessionId ?? 'x', prompt });
      // The rest comes later, as a real child's does (after a model request): a stopped child emits no more.
      const timer = setTimeout(() => {
        this.emitted++;
        out.next({ ...ids, type: 'ReasonStart', step: 1 });
        out.next({ ...ids, type: 'RunEnd', text: 'the answer', abnormal: false, metrics: EMPTY_METRICS, steps: 1 });
        out.complete();
      }, 50);
      return () => clearTimeout(timer);
    });
  }
}

describe.skipIf(!HAS_REDIS)('a worker starting a job whose log its launcher ended', () => {
  const fixture = redisBackendPerFile('worker-late-start:', 60_000);

  it('writes nothing after the end: no event, no result, no second end', async () => {
    const { parts, eventLog } = fixture.backend;
    const job = workerJob('task_late', SESSION, true);
    await eventLog.open(job.logId, 'task_late');
    expect(await endIfUnstarted(parts, job.logId, { kind: 'cancelled', reason: 'the task was cancelled before a worker took it' })).toBe(true);
    const agent = new Answers();
    const running = new Map<string, RunningJob>();
    await runJob(parts, job, agent, undefined, running, new AbortController().signal);

    const entries = await parts.redis.xrange(parts.keys.log(job.logId), '-', '+');
    expect(entries.map(([, fields]) => fields[0])).toEqual(['open', 'end']);
    expect(await parts.redis.hlen(parts.keys.results(SESSION))).toBe(0);
    expect(running.size).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(agent.emitted).toBe(0); // the child was stopped at its first event
  });

  it('runs as before when its first event comes first: the launcher then leaves the log to it', async () => {
    const { parts, eventLog } = fixture.backend;
    const job = workerJob('task_first', SESSION, true);
    await eventLog.open(job.logId, 'task_first');
    const agent = new Answers();
    await runJob(parts, job, agent, undefined, new Map<string, RunningJob>(), new AbortController().signal);
    expect(await endIfUnstarted(parts, job.logId, { kind: 'cancelled', reason: 'late' })).toBe(false);
    const entries = await parts.redis.xrange(parts.keys.log(job.logId), '-', '+');
    expect(entries.map(([, fields]) => fields[0])).toEqual(['open', 's', 's', 's', 'end']);
    expect(entries.map(([, fields]) => fields[1]).slice(1, 4)).toEqual(['1', '2', '3']);
    expect(Object.values(await parts.redis.hgetall(parts.keys.results(SESSION))).join('\n')).toContain('the answer');
  });
});
