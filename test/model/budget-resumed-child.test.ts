/**
 * Budgets under delegation the other tests leave out: a child resumed (`task_id`) by a run
 * with a budget draws from that run's, and two background children started in one step, busy
 * for ever, spend their parent's budget together no further than the guarantee allows (the
 * budget plus one request per agent in flight). Every request costs 100 tokens, through the
 * real `openai` client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { busy, costing, STEP } from '../backend/support/costing.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { steps } from '../support/delegation-script.js';
import type { FakeReply } from '../support/fake-openai-server.js';
import { lifecycleTaskReply, parseTaskResult, settled } from '../support/lifecycle-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** Tokens the server charged since request `from`: every request it answered to the end. */
const spentSince = (from: number): number => f.server.requests.slice(from).filter((r) => r.completed).length * STEP;

describe('a child resumed by a run with a budget', () => {
  it('draws from that run\'s budget: a child busy for ever is stopped within it', async () => {
    f = await startDelegationFixture({ main: steps(costing(lifecycleTaskReply('worker', 'start', {}))), worker: () => costing({ text: 'started' }) });
    const engine = f.engine({ maxSteps: 60 }, [testAgent('worker', { maxSteps: 60 })]);
    const first = await collect(engine.stream('delegate', { sessionId: 's' }));
    const { taskId } = parseTaskResult(own(first, 'ToolCallEnd').find((e) => e.toolName === 'task')!.text);
    const before = f.server.requests.length;
    f.server.resetPeak();
    f.route({ main: steps(costing(lifecycleTaskReply('worker', 'dig on', { task_id: taskId }))), worker: () => busy });
    const events = await collect(engine.stream('resume it', { sessionId: 's', tokenBudget: 300 }));
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: true, error: expect.stringContaining('the token budget is spent') });
    const result = parseTaskResult(own(events, 'ToolCallEnd').find((e) => e.toolName === 'task')!.text);
    expect(result).toMatchObject({ taskId, status: 'failure', content: expect.stringContaining('token budget is spent') });
    expect(spentSince(before)).toBeLessThanOrEqual(300 + STEP * f.server.peakInFlight);
  });
});

describe('two background children started in one step, busy for ever', () => {
  it('spend their parent\'s budget together within the guarantee, and both fail saying so', async () => {
    const twoTasks: FakeReply = {
      toolCalls: [
        { name: 'task', arguments: { agent_name: 'worker', prompt: 'dig a', description: 'a', background: true } },
        { name: 'task', arguments: { agent_name: 'worker', prompt: 'dig b', description: 'b', background: true } },
      ],
    };
    f = await startDelegationFixture({ main: steps(costing(twoTasks), costing({ text: 'started both' })), worker: () => busy });
    const engine = f.engine({ tokenBudget: 500, maxSteps: 60 }, [testAgent('worker', { maxSteps: 60 })]);
    await engine.call('go', { sessionId: 's' });
    const tasks = engine.tasks.list();
    expect(tasks).toHaveLength(2);
    const infos = await Promise.all(tasks.map((t) => settled(engine.tasks, t.taskId)));
    for (const info of infos) expect(info).toMatchObject({ state: 'failed', result: expect.stringContaining('the token budget is spent') });
    expect(spentSince(0)).toBeLessThanOrEqual(500 + STEP * f.server.peakInFlight);
  });
});
