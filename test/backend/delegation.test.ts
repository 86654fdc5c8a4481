import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { testAgent } from '../support/agent-turns.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { startDelegationFixture, turnOf } from '../support/delegation-fixture.js';
import type { Turn } from '../support/agent-turns.js';
import { stopProcess, workerProcess } from './worker-processes.js';
import { HAS_REDIS } from './redis-server.js';
import { eventsOf, shapeOf, useScaleKits, type ScaleKit } from './scale-kit.js';

const AGENTS = [testAgent('explorer'), testAgent('writer')];
/**
 * Nothing here waits for a heartbeat to lapse: a stall interval long enough that a loaded
 * machine never makes a live worker or engine look dead.
 */
const LIVE_STALL_MS = 30_000;

describe.skipIf(!HAS_REDIS)('delegated tasks on workers', () => {
  const scale = useScaleKits();
  let kit: ScaleKit;

  it('runs a foreground task on a worker with the same result and wrapped events as in-process', async () => {
    const routes = {
      main: steps(taskReply('explorer', 'find the docs', 'find docs')),
      explorer: () => ({ text: 'the docs are in docs/' }),
    };
    const local = await startDelegationFixture(routes);
    const here = local.engine({}, AGENTS);
    const inProcess = await eventsOf(here.stream('go'));
    await here.close();
    await local.close();

    kit = await scale.kit(LIVE_STALL_MS);
    kit.fixture.route(routes);
    const engine = await kit.engine({ distributeTasks: true }, AGENTS);
    await kit.worker();
    const remote = await eventsOf(engine.stream('go'));
    expect(shapeOf(remote)).toEqual(shapeOf(inProcess));
    const text = (events: AgentEvent[]): string => {
      const end = events.at(-1)!;
      return end.type === 'RunEnd' ? end.text.replace(/task_[0-9a-f-]+/g, 'task_ID') : `not a RunEnd: ${end.type}`;
    };
    expect(text(remote)).toBe(text(inProcess));
    expect(text(remote)).toContain('the docs are in docs/');
  });

  it('runs a multitask of 8 on 3 workers, each task in order', async () => {
    kit = await scale.kit(LIVE_STALL_MS);
    const tasks = Array.from({ length: 8 }, (_, i) => [i + 1, i % 2 ? 'writer' : 'explorer', `job ${i + 1}`, `task ${i + 1}`] as const);
    kit.fixture.route({
      main: steps(multitaskReply(tasks)),
      '*': (turn) => ({ text: `done: ${turn.prompt}`, chunkSize: 3, delayMs: 20 }),
    });
    const engine = await kit.engine({ distributeTasks: true, multitaskMaxTasks: 8 }, AGENTS);
    await Promise.all([kit.worker({ concurrency: 3 }), kit.worker({ concurrency: 3 }), kit.worker({ concurrency: 3 })]);
    const events = await eventsOf(engine.stream('go'));
    const end = events.at(-1) as { type: string; text: string };
    expect(end.type).toBe('RunEnd');
    for (let i = 1; i <= 8; i++) expect(end.text).toContain(`done: job ${i}`);
    for (let i = 1; i <= 8; i++) {
      const mine = shapeOf(events).filter((s) => s.startsWith(`TaskWrap(${i}:`));
      expect(mine[0]).toBe(`TaskWrap(${i}:RunStart)`);
      expect(mine.at(-1)).toBe(`TaskWrap(${i}:RunEnd)`);
      expect(mine.filter((s) => s.endsWith(':RunEnd)'))).toHaveLength(1);
    }
  });

  it('runs a multitask of 8 on 3 worker processes: same result text and wrapped order per task as in-process', { timeout: 60_000 }, async () => {
    const tasks = Array.from({ length: 8 }, (_, i) => [i + 1, i % 2 ? 'writer' : 'explorer', `job ${i + 1}`, `task ${i + 1}`] as const);
    const routes = {
      main: steps(multitaskReply(tasks)),
      '*': (turn: Turn) => ({ text: `done: ${turn.prompt}`, chunkSize: 3, delayMs: 10 }),
    };
    const local = await startDelegationFixture(routes);
    const here = local.engine({ multitaskMaxTasks: 8 }, AGENTS);
    const inProcess = await eventsOf(here.stream('go'));
    await here.close();
    await local.close();

    kit = await scale.kit(LIVE_STALL_MS);
    kit.fixture.route(routes);
    const k = kit;
    const procs = await Promise.all([1, 2, 3].map(() => workerProcess(k, scale.redis, { model: 'proc-model', stallMs: LIVE_STALL_MS, concurrency: 3 })));
    try {
      const engine = await kit.engine({ distributeTasks: true, multitaskMaxTasks: 8 }, AGENTS);
      const remote = await eventsOf(engine.stream('go'));
      const text = (events: AgentEvent[]): string => (events.at(-1)!.type === 'RunEnd' ? (events.at(-1) as { text: string }).text.replace(/task_[0-9a-f-]+/g, 'task_ID') : 'no RunEnd');
      expect(text(remote)).toBe(text(inProcess));
      for (let i = 1; i <= 8; i++) {
        const of = (events: AgentEvent[]) => shapeOf(events).filter((s) => s.startsWith(`TaskWrap(${i}:`));
        expect(of(remote)).toEqual(of(inProcess));
      }
      // Every child's request came from a worker process.
      const children = kit.fixture.server.requests.filter((r) => turnOf(r).agent !== 'main');
      expect(children).toHaveLength(8);
      expect(children.every((r) => r.body.model === 'proc-model')).toBe(true);
    } finally {
      await Promise.all(procs.map(stopProcess));
    }
  });

  it("keeps a task's log as long as the engine that delegated it says, whatever the worker's retention", async () => {
    kit = await scale.kit(LIVE_STALL_MS);
    kit.fixture.route({ main: steps(taskReply('explorer', 'find the docs', 'find docs')), explorer: () => ({ text: 'in docs/' }) });
    const engine = await kit.engine({ distributeTasks: true }, AGENTS, await kit.backend({ retentionMs: 1500 }));
    await kit.worker({}, await kit.backend({ retentionMs: 600_000 }));
    await engine.call('go');
    const { redis, keys } = (await kit.backend()).parts;
    const logs = (await redis.keys(keys.log('task_*'))).filter((key) => key.includes('.'));
    expect(logs).toHaveLength(1);
    const ttl = await redis.pttl(logs[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1500);
  });
});
