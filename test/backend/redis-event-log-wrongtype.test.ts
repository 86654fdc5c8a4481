/**
 * A followed log whose key is made something else than a stream (`DEL` then `SET`): the one
 * `XREAD` the follower shares fails `WRONGTYPE` for every log it reads. Only that log's readers
 * end, with an error naming it; the readers of the other logs go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { RedisBackendError } from '../../src/backend/redis-backend-error.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { record } from '../support/collect-events.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

const event = (n: number): AgentEvent => ({ type: 'Warning', runId: 'r', agentName: 'main', code: 'TEST', message: `event ${n}` });
const seqs = (events: readonly SequencedEvent[]): number[] => events.map((e) => e.seq);

describe.skipIf(!HAS_REDIS)('a followed log turned into another type', () => {
  let redis: RedisServer;
  let backend: RedisBackend;
  beforeAll(async () => {
    redis = await startRedis();
    backend = await redisBackend({ url: redis.url, prefix: 'wrongtype' });
  });
  afterAll(async () => {
    await backend?.close();
    await redis?.stop();
  });

  it('fails only its own readers, saying the log is not a stream; the sibling log is followed to its end', async () => {
    const log = backend.eventLog;
    const { redis: conn, keys } = backend.parts;
    for (const id of ['healthy', 'planted']) await log.append({ runId: id, seq: 1, event: event(1) });
    const healthy = record(log.read('healthy', 0));
    const planted = record(log.read('planted', 0));
    // Both follow now, on the one XREAD of the follower.
    await waitFor(() => healthy.events.length === 1 && planted.events.length === 1);
    await conn.multi().del(keys.log('planted')).set(keys.log('planted'), 'planted').exec();
    await log.append({ runId: 'planted', seq: 2, event: event(2) }).catch(() => undefined); // WRONGTYPE for its writer too
    await log.append({ runId: 'healthy', seq: 2, event: event(2) });
    await planted.done;
    expect(planted.error).toBeInstanceOf(RedisBackendError);
    expect((planted.error as Error).message).toContain(`The event log ${keys.log('planted')} in Redis is not a stream but a string`);
    expect((planted.error as Error).message).not.toContain('healthy');
    await waitFor(() => healthy.events.length === 2);
    expect(healthy.error).toBeUndefined();
    // Still followed after the failure: what comes later arrives too, and the end.
    await log.append({ runId: 'healthy', seq: 3, event: event(3) });
    await log.end('healthy', { kind: 'complete' });
    await healthy.done;
    expect(healthy.completed).toBe(true);
    expect(seqs(healthy.events)).toEqual([1, 2, 3]);
    // A reader that comes later fails the same way on its replay.
    const late = record(log.read('planted', 0));
    await late.done;
    expect((late.error as Error).message).toContain('is not a stream but a string');
  });
});
