import { describe, expect, it, vi } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { parseTaskResult } from '../support/lifecycle-script.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

const offline = offlineEnginePerTest();

const START = { toolCalls: [{ name: 'task', args: { agent_name: 'alpha', prompt: 'work', description: 'bg', background: true } }] };

describe('background tasks under concurrency (offline, fake time)', () => {
  it('50 concurrent starts get 50 unique ids; every result reaches the next prompt of its session once', async () => {
    const o = await offline(
      { main: (turn) => (turn.prompt.endsWith('next') ? { text: 'ok' } : scriptedSteps(START)(turn)), alpha: (turn) => ({ text: `did ${turn.prompt}`, delayMs: 1_000 }) },
      [testAgent('alpha')],
    );
    vi.useFakeTimers();
    const { engine, model } = o;
    // One run at a time per conversation: two conversations, each 25 runs in a row, side by side.
    const chain = async (sessionId: string) => {
      const results = [];
      for (let i = 0; i < 25; i++) results.push(await engine.call(`go ${i}`, { sessionId }));
      return results;
    };
    const runs = (await Promise.all([chain('s0'), chain('s1')])).flat();

    const ids = runs.map((r) => parseTaskResult(r.text).taskId);
    expect(new Set(ids).size).toBe(50);
    expect(ids.every((id) => /^task_[0-9a-f-]{36}$/.test(id))).toBe(true);
    expect(engine.tasks.list().filter((t) => t.state === 'running')).toHaveLength(50);
    expect(runs.map((r) => parseTaskResult(r.text).status)).toEqual(Array(50).fill('running'));

    await vi.runAllTimersAsync();
    expect(engine.tasks.list().map((t) => t.state)).toEqual(Array(50).fill('done'));

    const seen = model.requests.length;
    await engine.call('next', { sessionId: 's0' });
    await engine.call('next', { sessionId: 's0' });
    const prompts = model.requests.slice(seen).map((r) => String(r.messages.findLast((m) => m.role === 'user')!.content));
    const delivered = [...prompts[0]!.matchAll(/<task_id>(task_[^<]+)<\/task_id>/g)].map((m) => m[1]);
    expect(delivered.sort()).toEqual(engine.tasks.list('s0').map((t) => t.taskId).sort());
    expect(delivered).toHaveLength(25);
    expect(prompts.at(-1)).toBe('next');
  });
});
