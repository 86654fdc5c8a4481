/**
 * A child's first `RunEnd` is its last event (the rule of `superviseChild`): a worker that
 * still appended what the agent emitted after it left entries in the log that every reader
 * had to know to skip. The raw stream must hold nothing between that `RunEnd` and the log's end.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { runEndsTwice } from './support/ends-twice.js';

const TASK = 'task_after_end';

describe.skipIf(!HAS_REDIS)('a worker running a child that emits past its RunEnd', () => {
  const fixture = redisBackendPerFile('worker-after-end:', 60_000);

  it('appends nothing after the first RunEnd: the log ends right after it', async () => {
    const { parts } = fixture.backend;
    // A foreground child that goes on after its RunEnd: a warning, then a second RunEnd.
    const job = await runEndsTwice(fixture.backend, {
      taskId: TASK,
      rootSessionId: 'ses_after_end',
      background: false,
      runId: 'run_after_end',
      metrics: EMPTY_METRICS,
      between: (ids) => [{ ...ids, type: 'Warning', code: 'late', message: 'said after the end' }],
      answers: ['the answer', 'another answer'],
    });
    const raw = await parts.redis.xrange(parts.keys.log(job.logId), '-', '+');
    // [open], RunStart, RunEnd, end: by field name and event type, as stored.
    const shapes = raw.map(([, fields]) => (fields[2] === 'e' ? (JSON.parse(fields[3]!) as AgentEvent).type : fields[0]));
    expect(shapes).toEqual(['open', 'RunStart', 'RunEnd', 'end']);
    expect(JSON.stringify(raw)).not.toContain('said after the end');
  });
});
