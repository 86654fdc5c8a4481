import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redisBackend } from '../../src/backend/redis-backend.js';
import { RedisBackendError } from '../../src/backend/redis-backend-error.js';
import { testAgent } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS, freePort, startRedis, type RedisServer } from './redis-server.js';
import { startScaleKit, waitFor, type ScaleKit } from './scale-kit.js';
import { workerProcess } from './worker-processes.js';

const AGENTS = [testAgent('explorer')];
const STALL_MS = 1000;

describe.skipIf(!HAS_REDIS)('failover', () => {
  let redis: RedisServer;
  let kit: ScaleKit | undefined;
  let proc: ChildProcess | undefined;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    proc?.kill('SIGKILL');
    proc = undefined;
    await kit?.close();
    kit = undefined;
  });

  it('a worker killed mid-task fails that task within the stall interval, naming the cause; its sibling finishes', async () => {
    const k = (kit = await startScaleKit(redis, STALL_MS));
    k.fixture.route({
      main: steps(multitaskReply([[1, 'explorer', 'first', 'one'], [2, 'explorer', 'second', 'two']])),
      // The process's requests hang (it is killed during one); the in-process worker answers.
      explorer: (turn, request) => (request.body.model === 'proc-model' ? { hang: true } : { text: `ok: ${turn.prompt}`, delayMs: 300 }),
    });
    proc = await workerProcess(k, redis, { model: 'proc-model', stallMs: STALL_MS });
    await k.worker({ concurrency: 1 });
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    const result = engine.call('go');
    await waitFor(() => k.fixture.server.requests.some((r) => r.body.model === 'proc-model'));
    const killedAt = Date.now();
    proc.kill('SIGKILL');
    const { text } = await result;
    expect(Date.now() - killedAt).toBeLessThan(STALL_MS * 2 + 500);
    expect(text).toContain('the worker running it stopped');
    expect(text).toMatch(/ok: (first|second)/);
    expect(text.match(/result_status>success/g)).toHaveLength(1);
  });

  it('redisBackend fails with a clear error when Redis cannot be reached', async () => {
    const port = await freePort();
    const started = Date.now();
    const error = await redisBackend({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 500 }).catch((e: unknown) => e);
    expect(RedisBackendError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain(`cannot reach Redis at redis://127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('Redis going away mid-run ends the task with a clear error, without hanging; once back, work goes on', { timeout: 40_000 }, async () => {
    const own = await startRedis();
    try {
      const k = (kit = await startScaleKit(own, STALL_MS));
      k.fixture.route({ main: steps(taskReply('explorer', 'wait', 'hang')), explorer: () => ({ hang: true }) });
      await k.worker();
      const engine = await k.engine({ distributeTasks: true }, AGENTS);
      const result = engine.call('go');
      await waitFor(() => k.fixture.server.requests.some((r) => turnOf(r).agent === 'explorer'));
      await own.stop();
      const { text } = await result;
      expect(text).toMatch(/Redis failed|the worker running it stopped/);
      // Redis comes back: the same engine and worker carry on (their clients reconnect).
      await own.restart();
      k.fixture.route({ main: steps(taskReply('explorer', 'again', 'again')), explorer: () => ({ text: 'back again' }) });
      await waitFor(async () => (await engine.call('go again').catch(() => ({ text: '' }))).text.includes('back again'), 15_000);
    } finally {
      await kit?.close();
      kit = undefined;
      await own.stop();
    }
  });

  it('a foreground child whose engine died is stopped on its worker', async () => {
    const k = (kit = await startScaleKit(redis, STALL_MS));
    k.fixture.route({ main: steps(taskReply('explorer', 'wait', 'hang')), explorer: () => ({ hang: true }) });
    const worker = await k.worker();
    const backendA = await k.backend();
    const engine = await k.engine({ distributeTasks: true }, AGENTS, backendA);
    const run = engine.stream('go').subscribe({ error: () => undefined });
    const { server } = k.fixture;
    await waitFor(() => server.requests.some((r) => turnOf(r).agent === 'explorer'));
    const index = server.requests.findIndex((r) => turnOf(r).agent === 'explorer');
    await backendA.close(); // the engine's process is gone, as far as Redis can tell
    expect((await server.waitForClosed(index, STALL_MS * 3)).aborted).toBe(true);
    await waitFor(() => worker.running === 0);
    run.unsubscribe();
  });
});
