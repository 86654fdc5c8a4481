import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { testAgent } from '../support/agent-turns.js';
import { scriptedRoutes } from '../support/scripted-routes.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// The engine option `taskTrackerLimits` bounds `engine.tasks` of an engine without a backend
// (test/backend/waiting-bound.test.ts covers it on Redis).

const fresh = toolContextPerTest();

function engineWith(options: Omit<ConstructorParameters<typeof HarnessEngine>[0], 'model'>): HarnessEngine {
  const tasks = [1, 2, 3, 4, 5].map((index) => ({ index, agent_name: 'worker', prompt: `job ${index}`, description: `t${index}` }));
  const model = new ScriptedModel(
    scriptedRoutes({
      main: (turn) => (turn.step === 1 ? { toolCalls: [{ name: 'multitask', args: { tasks } }] } : { text: 'merged' }),
      worker: () => ({ text: 'done' }),
    }),
  );
  const engine = new HarnessEngine({ ...options, model, workspace: fresh.ws.dir, homeDir: fresh.ws.home });
  engine.agents.add(testAgent('worker'));
  return engine;
}

describe('the taskTrackerLimits engine option', () => {
  it('keeps at most retainFinished finished tasks in engine.tasks; the default keeps all five', async () => {
    const bounded = engineWith({ taskTrackerLimits: { retainFinished: 2 } });
    await lastValueFrom(bounded.stream('go').pipe(toArray()));
    expect(bounded.tasks.list().map((t) => t.state)).toEqual(['done', 'done']);
    const unbounded = engineWith({});
    await lastValueFrom(unbounded.stream('go').pipe(toArray()));
    expect(unbounded.tasks.list()).toHaveLength(5);
  });

  it('refuses a limit that is not a whole number, naming it', () => {
    expect(() => engineWith({ taskTrackerLimits: { retainFinished: -1 } })).toThrow(/retainFinished/);
  });
});
