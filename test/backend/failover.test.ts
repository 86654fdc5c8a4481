import type { ChildProcess } from 'node:child_process';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from 'bullmq';
import { redisBackend } from '../../src/backend/redis-backend.js';
import { TASK_QUEUE } from '../../src/backend/redis-keys.js';
import { RedisBackendError } from '../../src/backend/redis-backend-error.js';
import { testAgent } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { expectBusyWorkerWaitedFor, expectNoWorkerFailure } from './worker-expectations.js';
import { HAS_REDIS, freePort, startRedis, type RedisServer } from './redis-server.js';
import { startScaleKit, waitFor, type ScaleKit } from './scale-kit.js';
import { INSTANCE_BEATS_PER_STALL } from './heartbeats.js';
import { PROCESS_TEST_TIMEOUT_MS, engineProcess, workerProcess } from './worker-processes.js';

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

  it('a worker killed mid-task fails that task within the stall interval, naming the cause; its sibling finishes', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
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
    proc.kill('SIGKILL');
    // No time limit but the test's: a dead worker never noticed fails it; how soon is bench/'s.
    const { text } = await result;
    expect(text).toContain('the worker running it stopped');
    expect(text).toMatch(/ok: (first|second)/);
    expect(text.match(/result_status>success/g)).toHaveLength(1);
  });

  it('redisBackend fails with a clear error when Redis cannot be reached', async () => {
    const port = await freePort();
    // It fails instead of retrying forever (a hang fails the test).
    const error = await redisBackend({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 500 }).catch((e: unknown) => e);
    expect(RedisBackendError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain(`cannot reach Redis at redis://127.0.0.1:${port}`);
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
    // No time limit but the test's (a child left running fails it); how soon is bench/'s.
    expect((await server.waitForClosed(index, 15_000)).aborted).toBe(true);
    await waitFor(() => worker.running === 0);
    run.unsubscribe();
  });

  it('an app instance killed mid-run: its run fails within the stall interval for a client attached elsewhere, no hang', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const k = (kit = await startScaleKit(redis, STALL_MS));
    k.fixture.route({ main: () => ({ hang: true }) });
    const b = await k.engine();
    const owner = await engineProcess(k, redis, { model: 'proc-model', stallMs: STALL_MS, prompt: 'go' });
    proc = owner.child;
    await waitFor(() => b.runs.get(owner.runId)?.state === 'running');
    await waitFor(() => k.fixture.server.requests.length === 1);
    const attached = lastValueFrom(b.runs.attach(owner.runId).pipe(toArray())).catch((e: unknown) => e);
    proc.kill('SIGKILL');
    // No time limit but the test's: an owner never noticed gone fails it; how soon is bench/'s.
    const error = await attached;
    expect(String((error as Error).message)).toContain(`the app instance running run ${owner.runId} stopped`);
    await waitFor(() => b.runs.get(owner.runId)?.state === 'failed');
    // A client attaching later gets the same end at once; the session is not lost.
    const late = await lastValueFrom(b.runs.attach(owner.runId).pipe(toArray())).catch((e: unknown) => e);
    expect(String((late as Error).message)).toContain('stopped (no heartbeat');
  });

  it("an app instance killed while its task runs: the task is recorded failed for every other engine (whenSettled resolves)", { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const k = (kit = await startScaleKit(redis, STALL_MS));
    k.fixture.route({ main: steps(taskReply('explore', 'look around', 'look')), '*': () => ({ hang: true }) });
    const b = await k.engine();
    const owner = await engineProcess(k, redis, { model: 'proc-model', stallMs: STALL_MS, prompt: 'go' });
    proc = owner.child;
    await waitFor(() => b.tasks.list().some((t) => t.state === 'running'));
    const { taskId } = b.tasks.list().find((t) => t.state === 'running')!;
    const settled = b.tasks.whenSettled(taskId);
    proc.kill('SIGKILL');
    const info = await settled;
    expect(info).toMatchObject({ taskId, state: 'failed' });
    expect(info?.result).toContain(`the app instance running task ${taskId} stopped`);
    expect(Object.keys(info!)).not.toContain('owner');
  });

  it('a live owner is never reaped: another instance watching it for several stall intervals leaves its run alone', async () => {
    const k = (kit = await startScaleKit(redis, STALL_MS));
    const backendA = await k.backend();
    // Its answer waits for four stall intervals of the owner's own heartbeats (a loaded machine
    // slows those and the watcher alike, so the watcher cannot reap it for being slow).
    const beats = await k.heartbeats(backendA.parts.keys.instance(backendA.runs.instanceId));
    k.fixture.route({ main: () => beats.after(4 * INSTANCE_BEATS_PER_STALL).then(() => ({ text: 'slow but alive' })) });
    const a = await k.engine({}, [], backendA);
    const b = await k.engine();
    const run = a.start('go');
    await waitFor(() => b.runs.get(run.runId)?.state === 'running');
    const events = await lastValueFrom(b.runs.attach(run.runId).pipe(toArray()));
    expect(events.at(-1)!.event).toMatchObject({ type: 'RunEnd', text: 'slow but alive' });
    await waitFor(() => b.runs.get(run.runId)?.state === 'done');
  });

  it('skips corrupt run records and messages in Redis instead of failing every engine that reads them', async () => {
    const k = (kit = await startScaleKit(redis, STALL_MS));
    const probe = await k.backend();
    const { redis: r, keys } = probe.parts;
    await r.hset(keys.runs, 'run_bad1', 'not json', 'run_bad2', '{"info":null,"pending":"x"}', 'run_bad3', '[null]');
    await r.publish(keys.runsChannel, '{"op":"put","record":{"info":7}}');
    await r.publish(keys.runsChannel, 'garbage');
    const engine = await k.engine();
    expect(engine.runs.get('run_bad1')).toBeUndefined();
    expect(engine.runs.list().filter((info) => info.runId.startsWith('run_bad'))).toEqual([]);
    // The engine still works, and sees a good record published after the junk.
    k.fixture.route({ main: () => ({ text: 'fine' }) });
    const other = await k.engine();
    const run = other.start('go');
    await waitFor(() => engine.runs.get(run.runId)?.state === 'done');
  });

  it('a task queued while no worker pulls from the queue fails after the stall interval, saying how to start one', async () => {
    const k = (kit = await startScaleKit(redis, 500));
    await expectNoWorkerFailure(k);
    // Nothing is left queued for a worker that comes later.
    const queue = await (await k.backend()).parts.queue();
    await waitFor(async () => (await queue.getJobCounts('waiting', 'active')).waiting === 0);
    expect(await queue.getJobCounts('waiting', 'active')).toEqual({ waiting: 0, active: 0 });
  });

  it('a worker that takes a task and never starts it (no heartbeat) fails the task', async () => {
    const k = (kit = await startScaleKit(redis, 500));
    k.fixture.route({ main: steps(taskReply('explorer', 'take it', 'stuck')) });
    const probe = await k.backend();
    // A BullMQ worker on the same queue that takes the job and does nothing with it.
    const stuck = new Worker(TASK_QUEUE, () => new Promise(() => undefined), { connection: { url: redis.url, maxRetriesPerRequest: null }, prefix: probe.parts.keys.bull });
    stuck.on('error', () => undefined);
    try {
      await stuck.waitUntilReady();
      const engine = await k.engine({ distributeTasks: true }, AGENTS);
      const { text } = await engine.call('go');
      expect(text).toContain('a worker took it and stopped before starting it');
    } finally {
      await stuck.close(true);
    }
  });

  it('a task waiting behind a busy live worker waits as long as it takes (longer than the stall interval)', async () => {
    await expectBusyWorkerWaitedFor((kit = await startScaleKit(redis, STALL_MS)));
  });

  it('starts despite corrupt task and result entries in Redis, loading the good ones', async () => {
    const k = (kit = await startScaleKit(redis, STALL_MS));
    const probe = await k.backend();
    const { redis: r, keys } = probe.parts;
    const good = { taskId: 'task_good', agentName: 'explorer', description: 'd', sessionId: 'ses_x', parentRunId: 'run_x', background: true, state: 'done', startedAt: 1, endedAt: Date.now(), result: 'fine' };
    await r.set(keys.task('task_bad1'), 'not json');
    await r.set(keys.task('task_bad2'), '{"taskId":7}');
    await r.set(keys.task('task_good'), JSON.stringify(good), 'PX', 60_000);
    await r.hset(keys.results('ses_x'), 'task_bad3', '[null]', 'task_good', JSON.stringify(good));
    await r.publish(keys.tasksChannel, '{"op":"put","info":{"taskId":null}}');
    const engine = await k.engine();
    expect(engine.tasks.get('task_good')?.result).toBe('fine');
    expect(engine.tasks.get('task_bad1')).toBeUndefined();
    expect(engine.tasks.list().map((t) => t.taskId)).toEqual(['task_good']);
  });

  it('an idle engine drops finished run records past their retention from Redis', async () => {
    const k = (kit = await startScaleKit(redis, STALL_MS));
    k.fixture.route({ main: () => ({ text: 'done' }) });
    const owner = await k.engine({ runRetentionMs: 300 });
    // Another instance, never asked anything; its backend tidies every second (half its retention).
    await k.engine({}, [], await k.backend({ retentionMs: 2000 }));
    const run = owner.start('go');
    await run.result;
    const probe = (await k.backend()).parts;
    expect(await probe.redis.hexists(probe.keys.runs, run.runId)).toBe(1);
    await waitFor(async () => (await probe.redis.hexists(probe.keys.runs, run.runId)) === 0);
  });
});
