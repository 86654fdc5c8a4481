import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { RedisBackend } from '../../src/backend/redis-backend.js';
import { storedObject } from '../../src/backend/stored-object.js';
import { parseOwnedTask } from '../../src/backend/task-record.js';
import type { TaskInfo } from '../../src/delegation/task-tracker.js';
import { testAgent, type Turn } from '../support/agent-turns.js';
import { turnOf } from '../support/delegation-fixture.js';
import { HAS_REDIS } from './redis-server.js';
import { caughtUp, useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';
import { PROCESS_TEST_TIMEOUT_MS, engineProcess } from './worker-processes.js';

const STALL_MS = 1000;

/** A main agent that starts one background task of `agent`, then says so. */
const startsBackground = (agent: string) => (turn: Turn) =>
  turn.step === 1
    ? { toolCalls: [{ name: 'task', arguments: { agent_name: agent, prompt: 'wait', description: 'bg', background: true } }] }
    : { text: 'started it' };

/** Waits for the child's request on the fake server; returns a probe that resolves once it is aborted. */
async function childRequest(k: ScaleKit): Promise<() => Promise<void>> {
  const { server } = k.fixture;
  await waitFor(() => server.requests.some((r) => turnOf(r).agent !== 'main'));
  const index = server.requests.findIndex((r) => turnOf(r).agent !== 'main');
  return async () => {
    const closed = await server.waitForClosed(index, 10_000);
    expect(closed.aborted).toBe(true);
  };
}

/** Records of a task announced on the tasks channel, as they come, and the backend that hears them. */
interface Announced {
  readonly seen: TaskInfo[];
  readonly listener: RedisBackend;
}

/** Every record of `taskId` announced on the tasks channel from now on. */
async function announced(k: ScaleKit, taskId: string): Promise<Announced> {
  const listener = await k.backend();
  const { hub, keys } = listener.parts;
  const seen: TaskInfo[] = [];
  await hub.listen(keys.tasksChannel, (text) => {
    const message = JSON.parse(text) as { op: string; info?: TaskInfo };
    if (message.op === 'put' && message.info?.taskId === taskId) seen.push(message.info);
  });
  return { seen, listener };
}

/**
 * Resolves once nothing more can be announced of the background task `taskId`, so a second
 * record would be among `seen` by now; instead of sleeping, which proves nothing on a loaded
 * machine. Its worker wrote its last: the task log's end comes after the result and the
 * record (worker-job.ts). Its launcher stopped following it: no one listens for the log's
 * approvals (an engine records a task it follows once it reads the end, then leaves; a killed
 * one leaves when Redis sees its socket close). Then a pub/sub barrier on the listening
 * connection: what either published before reached it.
 */
async function nothingMoreOf({ listener }: Announced, taskId: string): Promise<void> {
  const { redis, keys, eventLog } = listener.parts;
  const logId = String(storedObject(await redis.get(keys.taskJob(taskId)))?.['logId']);
  await waitFor(() => eventLog.ended(logId));
  await waitFor(async () => ((await redis.pubsub('NUMSUB', keys.approvals(logId))) as [string, number])[1] === 0);
  await caughtUp(listener);
}

/** The final (not running) records among `seen`. */
const finals = (seen: readonly TaskInfo[]): TaskInfo[] => seen.filter((t) => t.state !== 'running');

describe.skipIf(!HAS_REDIS)('cancelTask of a background task whose engine died', () => {
  const scale = useScaleKits();
  let proc: ChildProcess | undefined;
  afterEach(() => {
    proc?.kill('SIGKILL');
    proc = undefined;
  });

  /**
   * Engine A in a process of its own launches a background task, and is SIGKILLed once
   * `launched` holds (its job is queued: a task whose engine dies before is lost), or frozen
   * with SIGSTOP: its sockets and subscriptions stay open, as on a host that vanished without
   * closing them, and it relays nothing.
   */
  async function orphaned(k: ScaleKit, launched: () => Promise<boolean>, signal: 'SIGKILL' | 'SIGSTOP' = 'SIGKILL'): Promise<{ taskId: string; running: TaskInfo }> {
    const b = await k.engine();
    const owner = await engineProcess(k, scale.redis, { model: 'proc-model', stallMs: STALL_MS, prompt: 'go' });
    proc = owner.child;
    await waitFor(() => b.tasks.list().some((t) => t.background && t.state === 'running'));
    const running = b.tasks.list().find((t) => t.background)!;
    await waitFor(launched);
    if (signal === 'SIGSTOP') {
      owner.child.kill('SIGSTOP');
      return { taskId: running.taskId, running };
    }
    const exited = new Promise((resolve) => owner.child.once('exit', resolve));
    owner.child.kill('SIGKILL');
    await exited;
    return { taskId: running.taskId, running };
  }

  /** A background task whose child hangs on a worker, its engine killed or frozen once the child's request is out; engine B to cancel it. */
  async function hangingOrphan(signal: 'SIGKILL' | 'SIGSTOP') {
    const k = await scale.kit(STALL_MS);
    k.fixture.route({ main: startsBackground('explore'), '*': () => ({ hang: true }) });
    const worker = await k.worker();
    const b = await k.engine();
    let probe: (() => Promise<void>) | undefined;
    const { taskId, running } = await orphaned(k, async () => ((probe = await childRequest(k)), true), signal);
    return { k, worker, b, taskId, running, probe: probe! };
  }

  it('reaches the worker (its model request aborted) and ends cancelled for every engine', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const { k, worker, b, taskId, running, probe } = await hangingOrphan('SIGKILL');
    const heard = await announced(k, taskId);
    expect(b.cancelTask(taskId)).toBe(true);
    await probe(); // aborted: no time limit but the test's (how soon is bench/'s)
    const info = await b.tasks.whenSettled(taskId);
    expect(info).toMatchObject({ ...running, state: 'cancelled' });
    expect(info?.result).toContain(`task ${taskId} was cancelled before it finished`);
    await waitFor(() => worker.running === 0);
    // Redis says the same (an engine started now loads it), and the record was settled once.
    const { redis, keys } = (await k.backend()).parts;
    expect(parseOwnedTask(await redis.get(keys.task(taskId)))?.info).toEqual(info);
    expect((await k.engine()).tasks.get(taskId)).toEqual(info);
    await nothingMoreOf(heard, taskId);
    expect(finals(heard.seen).map((t) => t.state)).toEqual(['cancelled']);
  });

  it('an engine frozen with its subscriptions open (nobody relays the cancel): the worker stops the task anyway after a stall interval', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const { k, worker, b, taskId, running, probe } = await hangingOrphan('SIGSTOP');
    const { keys, redis } = (await k.backend()).parts;
    const logId = String(storedObject(await redis.get(keys.taskJob(taskId)))?.['logId']);
    const beats = await k.heartbeats(keys.jobLock(logId));
    expect(b.cancelTask(taskId)).toBe(true);
    // The launcher still looks alive (its approvals subscription is open): the worker waits one
    // stall interval (about four heartbeats), no longer: it stops the job with that subscription
    // still there, so by its own check, not because the launcher went away.
    await probe();
    expect(await redis.pubsub('NUMSUB', keys.approvals(logId))).toEqual([keys.approvals(logId), 1]);
    // Not at once (nobody relays the cancel): the job's lock was renewed after the cancel, which
    // only a running job's is (BullMQ deletes it when the job ends).
    expect(beats.count()).toBeGreaterThanOrEqual(2);
    const info = await b.tasks.whenSettled(taskId);
    expect(info).toMatchObject({ ...running, state: 'cancelled' });
    await waitFor(() => worker.running === 0);
    // The engine wakes up and finds its task's log ended by a cancel it never asked for: it
    // records the task cancelled too (not failed), so the record every engine sees stays so.
    const later = await announced(k, taskId);
    proc!.kill('SIGCONT');
    await waitFor(() => later.seen.length > 0);
    expect(later.seen.map((t) => t.state)).toEqual(['cancelled']);
    expect(parseOwnedTask(await redis.get(keys.task(taskId)))?.info.state).toBe('cancelled');
    expect(b.tasks.get(taskId)?.state).toBe('cancelled');
  });

  it('reaches a job still waiting in the queue: no worker ever runs it', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const k = await scale.kit(STALL_MS);
    k.fixture.route({ main: startsBackground('explore'), '*': () => ({ text: 'ran anyway' }) });
    const b = await k.engine();
    const { redis, keys } = (await k.backend()).parts;
    // No worker yet: the job waits in the queue.
    const { taskId } = await orphaned(k, async () => (await redis.llen(`${keys.bull}:tasks:wait`)) === 1);
    expect(b.cancelTask(taskId)).toBe(true);
    const worker = await k.worker();
    const info = await b.tasks.whenSettled(taskId);
    expect(info?.state).toBe('cancelled');
    await waitFor(async () => (await redis.llen(`${keys.bull}:tasks:wait`)) + (await redis.llen(`${keys.bull}:tasks:active`)) === 0);
    expect(worker.running).toBe(0);
    expect(k.fixture.server.requests.filter((r) => turnOf(r).agent !== 'main')).toEqual([]);
  });
});

describe.skipIf(!HAS_REDIS)('cancelTask of a background task whose engine lives', () => {
  const scale = useScaleKits();

  it('from another engine: the worker stops once, both engines see one cancelled record', async () => {
    const k = await scale.kit(STALL_MS);
    k.fixture.route({ main: startsBackground('explorer'), explorer: () => ({ hang: true }) });
    const worker = await k.worker();
    const a = await k.engine({}, [testAgent('explorer')]);
    const b = await k.engine();
    await a.call('go', { sessionId: 'ses_alive' });
    const { taskId } = a.tasks.list()[0]!;
    const probe = await childRequest(k);
    await waitFor(() => b.tasks.get(taskId)?.state === 'running');
    const heard = await announced(k, taskId);
    expect(b.cancelTask(taskId)).toBe(true);
    await probe(); // aborted: no time limit but the test's (how soon is bench/'s)
    const own = await a.tasks.whenSettled(taskId);
    expect(own?.state).toBe('cancelled');
    expect(own?.result).toContain('was cancelled before it finished');
    await waitFor(() => b.tasks.get(taskId)?.state === 'cancelled');
    expect(b.tasks.get(taskId)).toEqual(own);
    await waitFor(() => worker.running === 0);
    // The engine's own record, written once; a second cancel finds nothing running.
    await nothingMoreOf(heard, taskId);
    expect(finals(heard.seen)).toEqual([own]);
    expect(b.cancelTask(taskId)).toBe(false);
    expect(a.cancelTask(taskId)).toBe(false);
  });
});
