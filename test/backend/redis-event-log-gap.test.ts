/**
 * A writer whose appends failed for a while (writers never retry) leaves a gap in its log's
 * seqs. Past `MAX_SEQ_GAP` a reader cannot tell it from a forged jump, so every later entry,
 * the run's `RunEnd` included, is skipped: the reader then fails at the log's end, saying the
 * log jumps and the run's end may be lost, instead of completing as if the log were whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEQ_GAP } from '../../src/backend/log-order.js';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { RedisBackendError } from '../../src/backend/redis-backend-error.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';
import { record } from '../support/collect-events.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

const warning = (message: string): AgentEvent => ({ type: 'Warning', runId: 'r', agentName: 'main', code: 'TEST', message });
const end: AgentEvent = { type: 'RunEnd', runId: 'r', agentName: 'main', text: 'done', abnormal: false, metrics: EMPTY_METRICS, steps: 1 };

describe.skipIf(!HAS_REDIS)('a writer gap past the bound', () => {
  let redis: RedisServer;
  let backend: RedisBackend;
  beforeAll(async () => {
    redis = await startRedis();
    backend = await redisBackend({ url: redis.url, prefix: 'gap' });
  });
  afterAll(async () => {
    await backend?.close();
    await redis?.stop();
  });

  it('fails the readers at the log end, saying it jumps and the run end may be lost', async () => {
    const log = backend.eventLog;
    const runId = 'gapped';
    await log.append({ runId, seq: 1, event: warning('one') });
    const bad: string[] = [];
    const live = record(log.read(runId, 0, (problem) => bad.push(problem)));
    await waitFor(() => live.events.length === 1); // following
    await log.append({ runId, seq: 2, event: warning('two') });
    // Seqs 3 .. 2 + MAX_SEQ_GAP lost (their appends failed): the writer goes on one past the bound.
    const next = 3 + MAX_SEQ_GAP;
    await log.append({ runId, seq: next, event: warning('after the gap') });
    await log.append({ runId, seq: next + 1, event: end });
    await log.end(runId, { kind: 'complete' });
    const replay = record(log.read(runId, 0));
    for (const reader of [live, replay]) {
      await reader.done;
      expect(reader.events.map((e) => e.seq)).toEqual([1, 2]);
      expect(reader.completed).toBe(false);
      expect(reader.error).toBeInstanceOf(RedisBackendError);
      const message = (reader.error as Error).message;
      expect(message).toContain(`The event log of ${runId} in Redis ended, but it jumps from seq 2 to seq ${next}, more than ${MAX_SEQ_GAP} past the one before`);
      expect(message).toContain("the run's end may be among them");
    }
    expect(bad).toHaveLength(2); // the event after the gap and the RunEnd, each skipped
  });
});
