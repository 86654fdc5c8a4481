/**
 * A child's first `RunEnd` is its last event (the rule of `superviseChild`): a worker that
 * still appended what the agent emitted after it left entries in the log that every reader
 * had to know to skip. The raw stream must hold nothing between that `RunEnd` and the log's end.
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

const TASK = 'task_after_end';

/** An agent that goes on emitting after its `RunEnd`: a warning, then a second `RunEnd`. */
class TalksPastItsEnd extends ReActAgent {
  constructor() {
    super({ name: 'alpha', model: new ScriptedModel([]) });
  }

  override run$(prompt: string): Observable<AgentEvent> {
    return new Observable<AgentEvent>((out) => {
      const ids = { runId: 'run_after_end', agentName: 'alpha' };
      const end = (text: string): AgentEvent => ({ ...ids, type: 'RunEnd', text, abnormal: false, metrics: EMPTY_METRICS, steps: 1 });
      out.next({ ...ids, type: 'RunStart', sessionId: TASK, prompt });
      out.next(end('the answer'));
      out.next({ ...ids, type: 'Warning', code: 'late', message: 'said after the end' });
      out.next(end('another answer'));
      out.complete();
    });
  }
}

/** The part of a foreground job that the worker reads. */
const job = {
  logId: `${TASK}.0001`,
  spec: { name: 'alpha', task: { taskId: TASK, rootSessionId: 'ses_after_end', rootRunId: 'run_root', background: false } },
  prompt: 'job',
  description: 'job',
  parentRunId: 'run_root',
  streaming: false,
  queuedAt: Date.now(),
  taskStartedAt: Date.now(),
} as unknown as TaskJob;

describe.skipIf(!HAS_REDIS)('a worker running a child that emits past its RunEnd', () => {
  const fixture = redisBackendPerFile('worker-after-end:', 60_000);

  it('appends nothing after the first RunEnd: the log ends right after it', async () => {
    const { parts, eventLog } = fixture.backend;
    await eventLog.open(job.logId, TASK);
    await runJob(parts, job, new TalksPastItsEnd(), undefined, new Map<string, RunningJob>(), new AbortController().signal);
    const raw = await parts.redis.xrange(parts.keys.log(job.logId), '-', '+');
    // [open], RunStart, RunEnd, end: by field name and event type, as stored.
    const shapes = raw.map(([, fields]) => (fields[2] === 'e' ? (JSON.parse(fields[3]!) as AgentEvent).type : fields[0]));
    expect(shapes).toEqual(['open', 'RunStart', 'RunEnd', 'end']);
    expect(JSON.stringify(raw)).not.toContain('said after the end');
  });
});
