import { describe, expect, it, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { parseTaskResult } from '../support/lifecycle-script.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { wrappedMemoryStore } from '../support/wrapped-store.js';

const offline = offlineEnginePerTest();

const call = (i: number) => ({ name: 'task', args: { agent_name: 'alpha', prompt: `job ${i}`, description: `bg ${i}`, background: true } });
const REFUSAL = 'at most 4 background tasks run at once in this conversation, and 4 are running; wait for one to finish';

describe('the bound on background tasks per conversation (maxBackgroundTasks)', () => {
  it('a reply of 100 background calls under a bound of 4 starts 4 and refuses 96 with a result the model can act on', async () => {
    const o = await offline(
      { main: scriptedSteps({ toolCalls: Array.from({ length: 100 }, (_, i) => call(i)) }, { text: 'started' }), alpha: () => ({ text: 'late', delayMs: 60_000 }) },
      [testAgent('alpha')],
      { maxBackgroundTasks: 4 },
    );
    const events = await collect(o.engine.stream('go', { sessionId: 's' }));

    const results = own(events, 'ToolCallEnd').map((e) => parseTaskResult(e.text));
    expect(results).toHaveLength(100);
    expect(results.filter((r) => r.status === 'running')).toHaveLength(4);
    const refused = results.filter((r) => r.status === 'failure');
    expect(refused).toHaveLength(96);
    for (const r of refused) expect(r.content).toContain(REFUSAL);
    expect(o.engine.tasks.list('s').filter((t) => t.state === 'running')).toHaveLength(4);
    // One terminal event, the run's own, last; the refusals are results, not a crash.
    const terminal = events.filter((e) => e.type === 'RunEnd' || e.type === 'RunCancelled');
    expect(terminal).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false, text: 'started' });
  });

  it('holds when two children of one conversation start background tasks together behind an asynchronous session store', async () => {
    // Both beta starts wait in the store until both are there: each has passed the early check.
    const waiting: (() => void)[] = [];
    const sessions = wrappedMemoryStore((memory) => ({
      saveTaskInfo: (info) => {
        if (info.agentName !== 'beta') return memory.saveTaskInfo(info);
        return new Promise<void>((resolve) => {
          waiting.push(() => resolve(memory.saveTaskInfo(info)));
          if (waiting.length === 2) for (const go of waiting) go();
        });
      },
    }));
    const fanOut = { toolCalls: [{ name: 'multitask', args: { tasks: [1, 2].map((index) => ({ index, agent_name: 'alpha', prompt: `lead ${index}`, description: `lead ${index}` })) } }] };
    const startBeta = { toolCalls: [{ name: 'task', args: { agent_name: 'beta', prompt: 'dig', description: 'bg', background: true } }] };
    const o = await offline(
      { main: scriptedSteps(fanOut), alpha: scriptedSteps(startBeta), beta: () => ({ text: 'late', delayMs: 60_000 }) },
      [testAgent('alpha'), testAgent('beta')],
      { maxBackgroundTasks: 1, maxDepth: 2, sessions },
    );
    const { text } = await o.engine.call('go', { sessionId: 's' });

    expect(waiting).toHaveLength(2);
    expect(o.engine.tasks.list('s').filter((t) => t.agentName === 'beta' && t.state === 'running')).toHaveLength(1);
    expect(text).toContain('at most 1 background tasks run at once in this conversation');
  });

  it('counts per conversation, and a finished task frees its place', async () => {
    const o = await offline(
      { main: scriptedSteps({ toolCalls: [call(0)] }, { text: 'ok' }), alpha: () => ({ text: 'done', delayMs: 1_000 }) },
      [testAgent('alpha')],
      { maxBackgroundTasks: 1 },
    );
    vi.useFakeTimers();
    const status = async (sessionId: string) => {
      const events = await collect(o.engine.stream('go', { sessionId }));
      return parseTaskResult(own(events, 'ToolCallEnd')[0]!.text);
    };
    expect((await status('a')).status).toBe('running');
    const second = await status('a');
    expect(second.status).toBe('failure');
    expect(second.content).toContain('at most 1 background tasks run at once in this conversation');
    expect((await status('b')).status).toBe('running'); // another conversation has its own bound

    await vi.advanceTimersByTimeAsync(1_000);
    expect((await status('a')).status).toBe('running');
  });

  it('refuses a negative bound when the engine is made', () => {
    const model = new ScriptedModel(() => ({ text: 'x' }));
    expect(() => new HarnessEngine({ model, maxBackgroundTasks: -1 })).toThrow(/`maxBackgroundTasks` must be an integer >= 0, got -1/);
  });
});
