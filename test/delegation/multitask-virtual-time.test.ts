import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestScheduler } from 'rxjs/testing';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { testAgent } from '../support/agent-turns.js';
import { scriptedRoutes } from '../support/scripted-routes.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { createTestScheduler } from '../support/virtual-time.js';

// A whole delegation in virtual time: the main agent's multitask of three children whose
// model answers after 10, 20 and 30 virtual ms, through a pool of 2.

let ws: TestWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(() => ws.cleanup());

const DURATIONS: Record<string, number> = { 'job 1': 10, 'job 2': 20, 'job 3': 30 };

function engineOn(scheduler: TestScheduler, pool: number): HarnessEngine {
  const tasks = [1, 2, 3].map((index) => ({ index, agent_name: 'worker', prompt: `job ${index}`, description: `t${index}` }));
  const model = new ScriptedModel(
    scriptedRoutes({
      main: (turn) => (turn.step === 1 ? { toolCalls: [{ name: 'multitask', args: { tasks } }] } : { text: 'merged' }),
      worker: (turn) => ({ text: `did ${turn.prompt}`, delayMs: DURATIONS[turn.prompt] ?? 1 }),
    }),
    { scheduler },
  );
  const engine = new HarnessEngine({ model, workspace: ws.dir, homeDir: ws.dir, multitaskMaxTasks: pool });
  engine.agents.add(testAgent('worker'));
  return engine;
}

/** `<ms> <task>:<child event>` for the children's starts and ends, and the parent's own end. */
function lifeline(scheduler: TestScheduler, engine: HarnessEngine, unsubscribeAt?: number): string[] {
  const log: string[] = [];
  const note = (e: AgentEvent): void => {
    if (e.type === 'TaskWrap' && (e.event.type === 'RunStart' || e.event.type === 'RunEnd')) log.push(`${scheduler.now()} ${e.taskDescription}:${e.event.type}`);
    if (e.type === 'ToolCallEnd' || e.type === 'RunEnd') log.push(`${scheduler.now()} ${e.type}`);
  };
  scheduler.run(({ flush }) => {
    const subscription = engine.stream('go').subscribe({ next: note, complete: () => log.push(`${scheduler.now()} |`) });
    if (unsubscribeAt !== undefined) scheduler.schedule(() => subscription.unsubscribe(), unsubscribeAt);
    flush();
  });
  return log;
}

describe('multitask in virtual time (marbles of the pool)', () => {
  it('a pool of 2: the third task waits for the first slot, children interleave, results at the last end', () => {
    const scheduler = createTestScheduler();
    expect(lifeline(scheduler, engineOn(scheduler, 2))).toEqual([
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

  it('no limit (0): all three start together; a pool of 1 runs them one after another', () => {
    const all = createTestScheduler();
    expect(lifeline(all, engineOn(all, 0)).filter((l) => l.endsWith('RunStart'))).toEqual(['0 t1:RunStart', '0 t2:RunStart', '0 t3:RunStart']);
    const one = createTestScheduler();
    expect(lifeline(one, engineOn(one, 1)).filter((l) => l.includes(':'))).toEqual([
      '0 t1:RunStart', '10 t1:RunEnd', '10 t2:RunStart', '30 t2:RunEnd', '30 t3:RunStart', '60 t3:RunEnd',
    ]);
  });

  it('unsubscribing at 15 stops everything: the queued task never starts, nothing follows, no RunEnd is faked', () => {
    const scheduler = createTestScheduler();
    const engine = engineOn(scheduler, 2);
    expect(lifeline(scheduler, engine, 15)).toEqual(['0 t1:RunStart', '0 t2:RunStart', '10 t1:RunEnd', '10 t3:RunStart']);
    expect(engine.tasks.list().map((t) => [t.description, t.state])).toEqual([
      ['t1', 'done'],
      ['t2', 'cancelled'],
      ['t3', 'cancelled'],
    ]);
  });
});
