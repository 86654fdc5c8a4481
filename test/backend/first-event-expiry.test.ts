/**
 * A worker's first event sets its log's deadline, as `RedisEventLog.append` does for a first
 * event: a job queued long after its launcher opened the log would otherwise run on a log
 * whose open's deadline is nearly spent, and Redis would expire it in the middle of the run.
 * Its task's list of logs (what a conversation's delete reads) is kept as long again.
 */
import { describe, expect, it } from 'vitest';
import { appendFirstIfOpen } from '../../src/backend/first-event-write.js';
import { endIfUnstarted } from '../../src/backend/unstarted-log-end.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

/** What is left of the open's deadline when the worker starts: the job waited in the queue. */
const LEFT_OF_THE_OPEN_MS = 5_000;
/** Room for the round trips between the write and the look at its deadline. */
const SLACK_MS = 60_000;

const first = (runId: string): SequencedEvent => ({ runId, seq: 1, event: { type: 'RunStart', runId, agentName: 'alpha', sessionId: 'ses_x', prompt: 'job' } });

describe.skipIf(!HAS_REDIS)('the deadline of a log a worker writes its first event to', () => {
  const fixture = redisBackendPerFile('first-event-expiry:', 60_000);

  it('is the whole maxLiveMs again, not what was left of the open', async () => {
    const { parts, eventLog } = fixture.backend;
    const key = parts.keys.log('task_wait.0001');
    await eventLog.open('task_wait.0001', 'task_wait');
    await parts.redis.pexpire(key, LEFT_OF_THE_OPEN_MS);
    expect(await appendFirstIfOpen(parts, first('task_wait.0001'))).toBe(true);
    const ttl = await parts.redis.pttl(key);
    expect(ttl).toBeGreaterThan(eventLog.maxLiveMs - SLACK_MS);
    expect(ttl).toBeLessThanOrEqual(eventLog.maxLiveMs);
    // the entry as RedisEventLog.append writes it
    const entries = await parts.redis.xrange(key, '-', '+');
    expect(entries.map(([, fields]) => fields.slice(0, 3))).toEqual([['open', '1'], ['s', '1', 'e']]);
  });

  it("pushes back its task's list of logs too: as long as the log can live, then be kept (a delete finds it)", async () => {
    const { parts, eventLog } = fixture.backend;
    const list = parts.keys.taskLogs('task_list');
    await eventLog.open('task_list.0001', 'task_list');
    await parts.redis.pexpire(list, LEFT_OF_THE_OPEN_MS);
    expect(await appendFirstIfOpen(parts, first('task_list.0001'), { taskId: 'task_list', retentionMs: undefined })).toBe(true);
    const ttl = await parts.redis.pttl(list);
    expect(ttl).toBeGreaterThan(eventLog.maxLiveMs + eventLog.retentionMs - SLACK_MS);
    expect(ttl).toBeLessThanOrEqual(eventLog.maxLiveMs + eventLog.retentionMs);
    expect(await parts.redis.smembers(list)).toEqual(['task_list.0001']);
  });

  it("keeps its task's list by the launching engine's retention, and never shortens it", async () => {
    const { parts, eventLog } = fixture.backend;
    const engineRetentionMs = 10 * SLACK_MS;
    const list = parts.keys.taskLogs('task_keep');
    await eventLog.open('task_keep.0001', 'task_keep');
    await parts.redis.pexpire(list, LEFT_OF_THE_OPEN_MS);
    expect(await appendFirstIfOpen(parts, first('task_keep.0001'), { taskId: 'task_keep', retentionMs: engineRetentionMs })).toBe(true);
    expect(await parts.redis.pttl(list)).toBeGreaterThan(eventLog.maxLiveMs + engineRetentionMs - SLACK_MS);
    // The list kept longer (for another log of the task, living longer): a first event does not cut it short.
    const longer = eventLog.maxLiveMs + 100 * SLACK_MS;
    await eventLog.open('task_keep.0002', 'task_keep');
    await parts.redis.pexpire(list, longer);
    expect(await appendFirstIfOpen(parts, first('task_keep.0002'), { taskId: 'task_keep', retentionMs: engineRetentionMs })).toBe(true);
    expect(await parts.redis.pttl(list)).toBeGreaterThan(longer - SLACK_MS);
  });

  it('is left alone on a log its launcher ended: the end\'s retention stands', async () => {
    const { parts, eventLog } = fixture.backend;
    const key = parts.keys.log('task_gone.0001');
    await eventLog.open('task_gone.0001', 'task_gone');
    expect(await endIfUnstarted(parts, 'task_gone.0001', { kind: 'cancelled', reason: 'late' })).toBe(true);
    await parts.redis.pexpire(key, LEFT_OF_THE_OPEN_MS);
    expect(await appendFirstIfOpen(parts, first('task_gone.0001'))).toBe(false);
    expect(await parts.redis.pttl(key)).toBeLessThanOrEqual(LEFT_OF_THE_OPEN_MS);
  });
});
