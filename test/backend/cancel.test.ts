import { firstValueFrom, filter } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { testAgent } from '../support/agent-turns.js';
import { record } from '../support/collect-events.js';
import { turnOf } from '../support/delegation-fixture.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];
/**
 * The stall interval of these kits: a minute. Nothing that waits for a heartbeat to lapse
 * can end the child within the waits below (10 s at most), so a request seen aborted was
 * aborted by the cancel itself. How fast a cancel travels is for bench/, not for an assertion
 * a loaded machine can flip.
 */
const STALL_MS = 60_000;

describe.skipIf(!HAS_REDIS)('cancelling tasks that run on workers', () => {
  const scale = useScaleKits();
  let kit: ScaleKit;

  /** A kit whose explorer hangs (its request stays open until aborted), with one worker. */
  async function hangingKit(main = steps(taskReply('explorer', 'wait forever', 'hang'))): Promise<ScaleKit> {
    const k = (kit = await scale.kit(STALL_MS));
    k.fixture.route({ main, explorer: () => ({ hang: true }) });
    await k.worker();
    return k;
  }

  /** Waits for the explorer's request; returns a wait for it to be aborted (true once it is). */
  async function explorerRequest(k: ScaleKit): Promise<() => Promise<boolean>> {
    const { server } = k.fixture;
    await waitFor(() => server.requests.some((r) => turnOf(r).agent === 'explorer'));
    const index = server.requests.findIndex((r) => turnOf(r).agent === 'explorer');
    return async () => (await server.waitForClosed(index, 10_000)).aborted;
  }

  it('unsubscribing the parent aborts the child on the worker', async () => {
    const k = await hangingKit();
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    const run = record(engine.stream('go'));
    const aborted = await explorerRequest(k);
    run.subscription.unsubscribe();
    expect(await aborted()).toBe(true);
  });

  it('runs.cancel from a second engine reaches the worker', async () => {
    const k = await hangingKit();
    const owner = await k.engine({ distributeTasks: true }, AGENTS);
    const other = await k.engine({}, AGENTS);
    const run = owner.start('go');
    const failed = run.result.catch((e: unknown) => e);
    const aborted = await explorerRequest(k);
    expect(other.runs.get(run.runId)?.state).toBe('running');
    expect(other.runs.cancel(run.runId)).toBe(true);
    expect(await aborted()).toBe(true);
    expect(await failed).toMatchObject({ name: 'AbortError' });
    await waitFor(() => other.runs.get(run.runId)?.state === 'cancelled');
  });

  it('cancelTask stops the remote child; the parent goes on with a failure result', async () => {
    const k = await hangingKit();
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    const events$ = engine.stream('go');
    const run = record(events$);
    const wrap = await firstValueFrom(
      engine.tasks.changes.pipe(filter((t) => t.state === 'running')),
    );
    const aborted = await explorerRequest(k);
    expect(engine.cancelTask(wrap.taskId)).toBe(true);
    expect(await aborted()).toBe(true);
    await run.done;
    const end = run.events.at(-1) as AgentEvent & { text: string };
    expect(end.type).toBe('RunEnd');
    expect(end.text).toContain('was cancelled before it finished');
  });

  it('cancelTask from another engine reaches the worker; that engine sees the task settle', async () => {
    const k = await hangingKit();
    const owner = await k.engine({ distributeTasks: true }, AGENTS);
    const other = await k.engine({}, AGENTS);
    const run = record(owner.stream('go'));
    const { taskId } = await firstValueFrom(owner.tasks.changes.pipe(filter((t) => t.state === 'running')));
    const aborted = await explorerRequest(k);
    await waitFor(() => other.tasks.get(taskId)?.state === 'running');
    expect(other.tasks.list().map((t) => t.taskId)).toContain(taskId);
    const settled = other.tasks.whenSettled(taskId);
    expect(other.cancelTask(taskId)).toBe(true);
    expect(await aborted()).toBe(true);
    expect((await settled)?.state).toBe('cancelled');
    await run.done;
    expect((run.events.at(-1) as AgentEvent & { text: string }).text).toContain('was cancelled before it finished');
  });

  it('engine.close() stops a background task on its worker', async () => {
    const k = await hangingKit(steps({ toolCalls: [{ name: 'task', arguments: { agent_name: 'explorer', prompt: 'wait', description: 'bg', background: true } }] }));
    const engine = await k.engine({}, AGENTS);
    const result = await engine.call('go');
    expect(result.text).toContain('background');
    const aborted = await explorerRequest(k);
    const closing = engine.close();
    expect(await aborted()).toBe(true);
    await closing;
  });

  it('random cancel points leave nothing running: no task on a worker, no request, no job, no key without an expiry', async () => {
    const k = (kit = await scale.kit());
    k.fixture.route({
      main: steps(multitaskReply([[1, 'explorer', 'a', 'one'], [2, 'explorer', 'b', 'two'], [3, 'explorer', 'c', 'three']])),
      explorer: () => ({ text: 'found', delayMs: Math.floor(Math.random() * 80), chunkSize: 1, chunkDelayMs: 2 }),
    });
    const workers = [await k.worker({ concurrency: 4 }), await k.worker({ concurrency: 4 })];
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    for (let i = 0; i < 25; i++) {
      const run = engine.stream('go').subscribe({ error: () => undefined });
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 250)));
      run.unsubscribe();
    }
    await waitFor(() => workers.every((w) => w.running === 0) && k.fixture.server.inFlight === 0);
    const probe = (await k.backend()).parts.redis;
    const bull = `${k.prefix}:bull:tasks`;
    await waitFor(async () => (await probe.llen(`${bull}:wait`)) + (await probe.llen(`${bull}:active`)) === 0);
    // Everything of ours expires (logs after the retention, markers and heartbeats sooner); BullMQ keeps only its queue's own keys.
    const keys = (await probe.keys(`${k.prefix}:*`)).filter((key) => !key.startsWith(`${bull}:`) && key !== `${k.prefix}:runs`);
    const forever = [];
    for (const key of keys) if ((await probe.pttl(key)) === -1) forever.push(key); // -2: expired meanwhile
    expect(forever).toEqual([]);
  });
});
