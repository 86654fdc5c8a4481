import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { parseOwnedTask } from '../../src/backend/task-record.js';
import { resultKey } from '../../src/delegation/undelivered-results.js';
import type { Turn } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor } from './scale-kit.js';
import { anyJobLock, INSTANCE_BEATS_PER_STALL, LOCK_BEATS_PER_STALL } from './heartbeats.js';
import { PROCESS_TEST_TIMEOUT_MS, engineProcess, workerProcess } from './worker-processes.js';

/** A main agent that starts one background task of `agent`, then says so. */
const startsBackground = (agent: string) => (turn: Turn) =>
  turn.step === 1
    ? { toolCalls: [{ name: 'task', arguments: { agent_name: agent, prompt: 'slow', description: 'bg', background: true } }] }
    : { text: 'started it' };

const killed = (child: ChildProcess): Promise<unknown> => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  return exited;
};

describe.skipIf(!HAS_REDIS)('a background task whose engine died', () => {
  const scale = useScaleKits();
  const procs: ChildProcess[] = [];
  afterEach(() => {
    for (const proc of procs.splice(0)) proc.kill('SIGKILL');
  });

  it('whose worker is killed too fails within a few stall intervals, naming the cause, for every engine, once', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const STALL_MS = 1000;
    const k = await scale.kit(STALL_MS);
    k.fixture.route({ main: startsBackground('explore'), '*': () => ({ hang: true }) });
    const worker = await workerProcess(k, scale.redis, { model: 'proc-model', stallMs: STALL_MS });
    procs.push(worker);
    // Two engines that outlive both: each sweeps, one records it.
    const backends = [await k.backend(), await k.backend()] as const;
    const [b, c] = [await k.engine({}, [], backends[0]), await k.engine({}, [], backends[1])];
    // Each sweep tick beats the engine's instance key first (dead-owner-sweep.ts): counted to know they swept.
    const ticks = await Promise.all(backends.map((backend) => k.heartbeats(backend.parts.keys.instance(backend.runs.instanceId))));
    const owner = await engineProcess(k, scale.redis, { model: 'proc-model', stallMs: STALL_MS, prompt: 'go' });
    procs.push(owner.child);
    await waitFor(() => b.tasks.list().some((t) => t.background && t.state === 'running'));
    const running = b.tasks.list().find((t) => t.background)!;
    await waitFor(() => k.fixture.server.requests.some((r) => turnOf(r).agent !== 'main'));
    const listener = await k.backend();
    const { redis, hub, keys } = listener.parts;
    const announced: string[] = [];
    await hub.listen(keys.tasksChannel, (text) => text.includes(running.taskId) && !text.includes('"running"') && announced.push(text));
    await Promise.all([killed(owner.child), killed(worker)]);
    // The engine's key lapses after a stall interval, the job's lock after two; the sweep settles
    // the task; no time limit but the test's (a task never settled fails it).
    const info = await b.tasks.whenSettled(running.taskId);
    expect(info).toMatchObject({ ...running, state: 'failed' });
    expect(info?.result).toContain('ERROR: the explore task failed: the worker running it stopped: no heartbeat for 2000 ms');
    expect(info?.result).toContain('the app instance that launched it is gone');
    await waitFor(() => c.tasks.get(running.taskId)?.state === 'failed');
    expect(c.tasks.get(running.taskId)).toEqual(info);
    expect(parseOwnedTask(await redis.get(keys.task(running.taskId)))?.info).toEqual(info);
    // Its failure waits for its conversation, as its engine would have put it there.
    expect(await redis.hexists(keys.results(running.sessionId), resultKey(running))).toBe(1);
    // Nothing more is announced: both engines know the task failed, so a sweep that starts
    // now leaves it alone; the one that may have been under way when they learned it (the
    // loser of the compare-and-swap) finishes within a few Redis round trips. A stall
    // interval's sweep ticks of each engine, counted, not timed (a loaded machine slows the
    // ticks with everything else), then a pub/sub barrier: what either published reached us.
    // Absence cannot be signalled; this is the shortest wait that still sees a late loser.
    await Promise.all(ticks.map((beats) => beats.after(INSTANCE_BEATS_PER_STALL)));
    await caughtUp(listener);
    expect(announced).toHaveLength(1);
  });

  it('whose worker lives and beats is never failed: it ends with its answer', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    // Two seconds: the worker here shares the test's process, and must show its first event
    // within one stall interval of taking the job (or its launcher fails the task), also when
    // the machine's cores are busy.
    const STALL_MS = 2000;
    const k = await scale.kit(STALL_MS);
    // Slower than several stall intervals, counted in the worker's heartbeats on the job (not
    // in milliseconds: a loaded machine slows both alike).
    const beats = await k.heartbeats(anyJobLock((await k.backend()).parts.keys));
    k.fixture.route({ main: startsBackground('explore'), '*': () => beats.after(3 * LOCK_BEATS_PER_STALL).then(() => ({ text: 'slow but alive' })) });
    await k.worker();
    const b = await k.engine();
    const owner = await engineProcess(k, scale.redis, { model: 'proc-model', stallMs: STALL_MS, prompt: 'go' });
    procs.push(owner.child);
    await waitFor(() => b.tasks.list().some((t) => t.background && t.state === 'running'));
    const running = b.tasks.list().find((t) => t.background)!;
    await waitFor(() => k.fixture.server.requests.some((r) => turnOf(r).agent !== 'main'));
    await killed(owner.child);
    const states = new Set<string>();
    const watching = setInterval(() => states.add(b.tasks.get(running.taskId)?.state ?? 'gone'), 20);
    const info = await b.tasks.whenSettled(running.taskId);
    clearInterval(watching);
    expect(info).toMatchObject({ state: 'done', result: 'slow but alive' });
    expect([...states]).toEqual(['running']);
  });
});
