/**
 * A run's record changed by one instance while another's subscriber connection was down: its
 * message never reached that instance, whose copy must not stay wrong until restart (the
 * owner's heartbeat lives, so no dead-owner sweep corrects it). Once its hub has the channel
 * again, it reads the records back from Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import type { RunInfo } from '../../src/runs/run-types.js';
import { withHubsDown } from './hubs-down.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('the shared runs after the subscriber connection dropped', () => {
  let redis: RedisServer | undefined;
  let a: RedisBackend | undefined;
  let b: RedisBackend | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    a = await redisBackend({ url: redis.url, prefix: 'reloadruns', retentionMs: 60_000 });
    b = await redisBackend({ url: redis.url, prefix: 'reloadruns', retentionMs: 60_000 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });
  const run = (runId: string): RunInfo => ({ runId, sessionId: 's1', agentName: 'main', state: 'running', startedAt: Date.now() });

  it("learns of a run's end and of a run forgotten while it heard nothing", async () => {
    const [one, two] = [run('run_reload1'), run('run_reload2')];
    a!.runs.publish({ info: one, pending: [] });
    a!.runs.publish({ info: two, pending: [] });
    await waitFor(() => b!.runs.get('run_reload2') !== undefined);
    const admin = a!.parts.redis;
    await withHubsDown(admin, a!.parts.keys.runsChannel, 2, async () => {
      a!.runs.publish({ info: { ...one, state: 'done', endedAt: Date.now() }, pending: [] });
      a!.runs.forget('run_reload2');
      await admin.ping(); // after both transactions, on the same connection
    });
    await waitFor(() => b!.runs.get('run_reload1')?.info.state === 'done');
    await waitFor(() => b!.runs.get('run_reload2') === undefined);
    expect(b!.runs.list().map((r) => r.info.runId)).toEqual(['run_reload1']);
  });
});
