import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { settleRecord } from '../../src/backend/settle-record.js';
import { parseOwnedTask } from '../../src/backend/task-record.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { testAgent, type Turn } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';
import { PROCESS_TEST_TIMEOUT_MS, engineProcess } from './worker-processes.js';

const STALL_MS = 1000;

/** A main agent that starts one background task of `agent`, then says so. */
const startsBackground = (agent: string) => (turn: Turn) =>
  turn.step === 1
    ? { toolCalls: [{ name: 'task', arguments: { agent_name: agent, prompt: 'slow', description: 'bg', background: true } }] }
    : { text: 'started it' };

describe.skipIf(!HAS_REDIS)("a background task's shared record", () => {
  const scale = useScaleKits();
  let proc: ChildProcess | undefined;
  afterEach(() => {
    proc?.kill('SIGKILL');
    proc = undefined;
  });

  it('reaches its final state with its result when the engine that launched it was killed (SIGKILL)', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const k = await scale.kit(STALL_MS);
    // The engine process has only the built-in agents: `explore` it is, answered by the worker here.
    k.fixture.route({ main: startsBackground('explore'), '*': () => ({ text: 'the background answer', delayMs: 1500 }) });
    await k.worker();
    const b = await k.engine();
    const owner = await engineProcess(k, scale.redis, { model: 'proc-model', stallMs: STALL_MS, prompt: 'go' });
    proc = owner.child;
    await waitFor(() => b.tasks.list().some((t) => t.background && t.state === 'running'));
    const running = b.tasks.list().find((t) => t.background)!;
    // The child is on the worker, mid-request, when its engine dies.
    await waitFor(() => k.fixture.server.requests.some((r) => turnOf(r).agent !== 'main'));
    proc.kill('SIGKILL');
    const info = await b.tasks.whenSettled(running.taskId);
    expect(info).toMatchObject({ ...running, state: 'done', result: 'the background answer' });
    expect(info?.endedAt).toBeGreaterThanOrEqual(running.startedAt);
    expect(info?.metrics?.totalTokens).toBeGreaterThan(0);
    expect(Object.keys(info!)).not.toContain('owner');
    // What Redis keeps (and what an engine started now loads) says the same, with its owner kept.
    const probe = (await k.backend()).parts;
    const stored = parseOwnedTask(await probe.redis.get(probe.keys.task(running.taskId)));
    expect(stored?.info).toEqual(info);
    expect(stored?.owner).toBeDefined();
    expect((await k.engine()).tasks.get(running.taskId)).toEqual(info);
  });

  it('with its engine alive, every engine ends up with the engine\'s own record', async () => {
    const k = await scale.kit(STALL_MS);
    k.fixture.route({ main: startsBackground('explorer'), explorer: () => ({ text: 'the background answer', delayMs: 200 }) });
    await k.worker();
    const a = await k.engine({}, [testAgent('explorer')]);
    const b = await k.engine();
    await a.call('go', { sessionId: 'ses_alive' });
    const { taskId } = a.tasks.list()[0]!;
    const own = await a.tasks.whenSettled(taskId);
    expect(own).toMatchObject({ state: 'done', result: 'the background answer' });
    const probe = (await k.backend()).parts;
    // The engine writes after the worker (it records the task once it read the log's end).
    await waitFor(async () => parseOwnedTask(await probe.redis.get(probe.keys.task(taskId)))?.info.endedAt === own!.endedAt);
    await waitFor(() => b.tasks.get(taskId)?.endedAt === own!.endedAt);
    expect(b.tasks.get(taskId)).toEqual(own);
  });

  it('never settles a record that is not running, nor one of a later launch; settles a running one, keeping its start and owner', async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const watcher = await k.engine();
    // Times of now: an engine forgets a settled task once past its retention.
    const t = Date.now() - 10_000;
    const base: TaskInfo = { taskId: 'task_rec', agentName: 'explorer', description: 'd', sessionId: 'ses_rec', parentRunId: 'run_rec', background: true, state: 'running', startedAt: t };
    // What the worker computed: its own start (ignored), its end and result.
    const final: TaskInfo = { ...base, state: 'done', startedAt: t + 50, endedAt: t + 500, result: 'answer' };
    const queuedAt = t + 10;
    const put = (info: TaskInfo): Promise<unknown> => redis.set(keys.task(info.taskId), JSON.stringify({ ...info, owner: 'instance_x' }), 'PX', 60_000);
    const read = async () => parseOwnedTask(await redis.get(keys.task('task_rec')));

    // Cancelled by its live engine (the cancel landed first): it stays cancelled.
    const cancelled: TaskInfo = { ...base, state: 'cancelled', endedAt: t + 400, result: 'ERROR: cancelled' };
    await put(cancelled);
    expect(await settleRecord(redis, keys, final, queuedAt, 60_000)).toBe(false);
    expect((await read())?.info).toEqual(cancelled);
    // Running again, but as a later launch (a resume) than the job that ended.
    await put({ ...base, startedAt: t + 20 });
    expect(await settleRecord(redis, keys, final, queuedAt, 60_000)).toBe(false);
    expect((await read())?.info.state).toBe('running');
    // Gone (expired): nothing is made up.
    await redis.del(keys.task('task_rec'));
    expect(await settleRecord(redis, keys, final, queuedAt, 60_000)).toBe(false);
    expect(await redis.exists(keys.task('task_rec'))).toBe(0);
    // Running, of this launch: settled as its tracker would, for Redis and every engine.
    await put(base);
    expect(await settleRecord(redis, keys, final, queuedAt, 60_000)).toBe(true);
    const settled = { ...base, state: 'done', endedAt: t + 500, result: 'answer' };
    expect(await read()).toEqual({ info: settled, owner: 'instance_x' });
    const ttl = await redis.pttl(keys.task('task_rec'));
    expect(ttl).toBeGreaterThan(50_000);
    await waitFor(() => watcher.tasks.get('task_rec')?.state === 'done');
    expect(watcher.tasks.get('task_rec')).toEqual(settled);
  });
});
