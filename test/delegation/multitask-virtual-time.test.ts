import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { testAgent } from '../support/agent-turns.js';
import { scriptedRoutes } from '../support/scripted-routes.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// A whole delegation in fake time: the main agent's multitask of three children whose
// model answers after 10, 20 and 30 virtual ms, through a pool of 2.

const fresh = toolContextPerTest();

const DURATIONS: Record<string, number> = { 'job 1': 10, 'job 2': 20, 'job 3': 30 };

function engineOn(pool: number): HarnessEngine {
  const tasks = [1, 2, 3].map((index) => ({ index, agent_name: 'worker', prompt: `job ${index}`, description: `t${index}` }));
  const model = new ScriptedModel(
    scriptedRoutes({
      main: (turn) => (turn.step === 1 ? { toolCalls: [{ name: 'multitask', args: { tasks } }] } : { text: 'merged' }),
      worker: (turn) => ({ text: `did ${turn.prompt}`, delayMs: DURATIONS[turn.prompt] ?? 1 }),
    }),
  );
  const engine = new HarnessEngine({ model, workspace: fresh.ws.dir, homeDir: fresh.ws.home, multitaskMaxTasks: pool });
  engine.agents.add(testAgent('worker'));
  return engine;
}

/**
 * `<ms> <task>:<child event>` for the children's starts and ends (and waits), and the
 * parent's own end, in fake time: p-limit starts a job on a promise tick, which the
 * TestScheduler's synchronous flush never drains, so the clock is vitest's.
 */
async function lifeline(engine: HarnessEngine, unsubscribeAt?: number): Promise<string[]> {
  const log: string[] = [];
  const t0 = Date.now();
  const now = (): number => Date.now() - t0;
  const note = (e: AgentEvent): void => {
    if (e.type === 'TaskQueued') log.push(`${now()} ${e.taskDescription}:queued`);
    if (e.type === 'TaskWrap' && (e.event.type === 'RunStart' || e.event.type === 'RunEnd')) log.push(`${now()} ${e.taskDescription}:${e.event.type}`);
    if (e.type === 'ToolCallEnd' || e.type === 'RunEnd') log.push(`${now()} ${e.type}`);
  };
  const subscription = engine.stream('go').subscribe({ next: note, complete: () => log.push(`${now()} |`) });
  if (unsubscribeAt !== undefined) setTimeout(() => subscription.unsubscribe(), unsubscribeAt);
  await vi.advanceTimersByTimeAsync(1_000);
  return log;
}

describe('multitask in fake time (the p-limit pool, to the millisecond)', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 0 }));
  afterEach(() => void vi.useRealTimers());

  it('a pool of 2: the third task waits for the first slot, children interleave, results at the last end', async () => {
    expect(await lifeline(engineOn(2))).toEqual([
      '0 t3:queued',
      '0 t1:RunStart',
      '0 t2:RunStart',
      '10 t1:RunEnd',
      '10 t3:RunStart', // the freed slot, at once
      '20 t2:RunEnd',
      '40 t3:RunEnd', // 10 + 30
      '40 ToolCallEnd',
      '40 RunEnd',
      '40 |',
    ]);
  });

  it('no limit (0): all three start together; a pool of 1 runs them one after another', async () => {
    expect((await lifeline(engineOn(0))).filter((l) => !/RunEnd|ToolCallEnd|\|/.test(l))).toEqual(['0 t1:RunStart', '0 t2:RunStart', '0 t3:RunStart']);
    expect((await lifeline(engineOn(1))).filter((l) => l.includes(':'))).toEqual([
      '0 t2:queued', '0 t3:queued', '0 t1:RunStart', '10 t1:RunEnd', '10 t2:RunStart', '30 t2:RunEnd', '30 t3:RunStart', '60 t3:RunEnd',
    ]);
  });

  it('unsubscribing at 15 stops everything: the queued task never starts, nothing follows, no RunEnd is faked', async () => {
    const engine = engineOn(1);
    expect(await lifeline(engine, 15)).toEqual(['0 t2:queued', '0 t3:queued', '0 t1:RunStart', '10 t1:RunEnd', '10 t2:RunStart']);
    // (Listed in the order they were registered: the waiting ones before the first to start.)
    expect(engine.tasks.list().map((t) => [t.description, t.state]).sort()).toEqual([
      ['t1', 'done'],
      ['t2', 'cancelled'],
      ['t3', 'cancelled'],
    ]);
  });
});
