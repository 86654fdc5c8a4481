/**
 * A followed log whose key flaps between a string and a stream (`DEL`+`SET`, `DEL`+`XADD`, in
 * a loop): the follower's shared `XREAD` fails `WRONGTYPE` while the key may be a stream again
 * a round trip later. A `WRONGTYPE` is never a Redis failure: the other log's reader gets every
 * event and its end; the flapped log's readers fail saying it is not a stream.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { RedisBackendError } from '../../src/backend/redis-backend-error.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { record } from '../support/collect-events.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

const event = (n: number): AgentEvent => ({ type: 'Warning', runId: 'r', agentName: 'main', code: 'TEST', message: `event ${n}` });
/** How many times the planted key is made a string and a stream again. */
const FLIPS = 400;

describe.skipIf(!HAS_REDIS)('a followed log flapping between a string and a stream', () => {
  let redis: RedisServer;
  let backend: RedisBackend;
  let attacker: Redis | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    backend = await redisBackend({ url: redis.url, prefix: 'flap' });
  });
  afterAll(async () => {
    attacker?.disconnect();
    await backend?.close();
    await redis?.stop();
  });

  it('never fails the reader of the other log; its own readers fail saying it is not a stream', async () => {
    const log = backend.eventLog;
    const key = backend.parts.keys.log('planted');
    for (const id of ['healthy', 'planted']) await log.append({ runId: id, seq: 1, event: event(1) });
    const healthy = record(log.read('healthy', 0));
    const planted = record(log.read('planted', 0));
    // Both follow now, on the one XREAD of the follower.
    await waitFor(() => healthy.events.length === 1 && planted.events.length === 1);
    attacker = new Redis(redis.url);
    const flipper = attacker;
    let flipped = 0;
    const flapping = (async () => {
      for (; flipped < FLIPS; flipped++) {
        await flipper.multi().del(key).set(key, 'planted').exec();
        await flipper.multi().del(key).xadd(key, '*', 's', '1', 'e', JSON.stringify(event(1))).exec();
      }
    })();
    // The healthy log is written all along (each append wakes the shared XREAD).
    let seq = 1;
    while (flipped < FLIPS && !healthy.error) {
      await log.append({ runId: 'healthy', seq: ++seq, event: event(seq) });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await flapping;
    // Left a string: a planted reader still following fails now, if the flapping did not fail it.
    await flipper.multi().del(key).set(key, 'planted').exec();
    await log.append({ runId: 'healthy', seq: ++seq, event: event(seq) });
    await log.end('healthy', { kind: 'complete' });
    await healthy.done;
    await planted.done;
    expect(healthy.error).toBeUndefined();
    expect(healthy.completed).toBe(true);
    expect(healthy.events.map((e) => e.seq)).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
    expect(planted.error).toBeInstanceOf(RedisBackendError);
    expect((planted.error as Error).message).toContain(`The event log ${key} in Redis is not a stream but a string`);
  }, 60_000);
});
