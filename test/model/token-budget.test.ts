import { describe, expect, it } from 'vitest';
import type { AgentEvent, BudgetEvent, TaskWrapEvent } from '../../src/events/agent-event.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { parseTaskResult, settled } from '../support/lifecycle-script.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import type { ScriptedRoute } from '../support/scripted-routes.js';

const offline = offlineEnginePerTest();

/** A reply that the server says cost `tokens` (all of it completion, for easy sums). */
const costing = (tokens: number, reply: object = { text: 'done' }) => ({ ...reply, usage: { promptTokens: 0, completionTokens: tokens, totalTokens: tokens } });

const multitask = (n: number) => ({
  toolCalls: [{ name: 'multitask', args: { tasks: Array.from({ length: n }, (_, i) => ({ index: i + 1, agent_name: 'worker', prompt: `job ${i + 1}`, description: `t${i + 1}` })) } }],
});

/** A worker that calls `todo` on its first step and answers on its second, each step costing `per`. */
const worker = (per: number): ScriptedRoute => (turn) =>
  turn.step === 1 ? costing(per, { toolCalls: [{ name: 'todo', args: { todos: [] } }] }) : costing(per, { text: `did ${turn.prompt}` });

const innerEnds = (events: readonly AgentEvent[]) => wraps(events).filter((w): w is TaskWrapEvent => w.event.type === 'RunEnd').map((w) => [w.taskDescription, w.event]);

describe('tokenBudget shared by a tree', () => {
  it('a multitask past the budget: tasks run while something is left; the request that takes the rest is its run\'s last, without tools; later tasks and the parent\'s next request are refused', async () => {
    const o = await offline(
      { main: (t) => (t.step === 1 ? costing(100, multitask(4)) : costing(50, { text: `summary (tools offered: ${t.toolNames.length})` })), worker: worker(200) },
      [testAgent('worker')],
      { tokenBudget: 1000, multitaskMaxTasks: 1 },
    );
    const events = await collect(o.engine.stream('go'));
    // main 100; t1 200+200 → 500; t2 200+200 → 900; t3's first request reserves 200 (what the
    // pool's last request cost) of the 100 left: it is let through as its last, without tools → 1100.
    const ends = Object.fromEntries(innerEnds(events)) as Record<string, { abnormal: boolean; error?: string; steps: number }>;
    expect(ends['t1']).toMatchObject({ abnormal: false, steps: 2 });
    expect(ends['t2']).toMatchObject({ abnormal: false, steps: 2 });
    expect(ends['t3']).toMatchObject({ abnormal: true, steps: 1, error: expect.stringMatching(/^the token budget is spent: 1100 of 1000 tokens used .*last step was made without tools/) });
    // t4 is refused: when it starts, or at its first request (the pool may prepare it earlier).
    expect(ends['t4']).toMatchObject({ abnormal: true, steps: 0, error: expect.stringMatching(/^(no token budget is left for this task|the token budget is spent): 1100 of 1000 tokens/) });
    // t3's only request offered no tools; t4 never reached the model.
    const workerRequests = o.model.requests.filter((r) => r.sender?.agentName === 'worker');
    expect(workerRequests).toHaveLength(5);
    expect(workerRequests.at(-1)!.tools).toBeUndefined();
    expect(workerRequests.at(-2)!.tools?.length).toBeGreaterThan(0);
    // The parent's next request is refused: nothing is left, so the tree stops at 1100, one request past 1000.
    const end = own(events, 'RunEnd')[0]!;
    expect(end).toMatchObject({ abnormal: true, steps: 1, error: 'the token budget is spent: 1100 of 1000 tokens used by this run and its tasks, so no further model request was made' });
    expect(o.model.requests.filter((r) => r.sender?.agentName === 'main')).toHaveLength(1);
    // Exact accounting: the budget charged what the model reported, and the metrics agree.
    expect(end.metrics.totalTokens).toBe(1100);
    const budgets = own(events, 'Budget') as BudgetEvent[];
    expect(budgets.map((b) => [b.step, b.used, b.remaining])).toEqual([[1, 100, 900]]);
  });

  it('nested at depth 2: a grandchild draws from the same remainder, and a child\'s own budget can only be smaller', async () => {
    const o = await offline(
      {
        main: (t) => (t.step === 1 ? costing(10, { toolCalls: [{ name: 'task', args: { agent_name: 'lead', prompt: 'p', description: 'lead' } }] }) : costing(10)),
        lead: (t) => (t.step === 1 ? costing(10, { toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'deep', description: 'deep' } }] }) : costing(10)),
        worker: worker(40),
      },
      [testAgent('lead', { tokenBudget: 60 }), testAgent('worker')],
      { tokenBudget: 10_000, maxDepth: 2 },
    );
    const events = await collect(o.engine.stream('go'));
    // lead's own budget 60: lead 10, worker 40 → 50. The worker's second request reserves 40
    // (its first's cost) of the 10 left: let through as its last, without tools → 90, and the
    // worker ends abnormally. lead's budget binds, not main's 10,000: lead's next request is
    // refused; main goes on with the failure result.
    const leadResult = parseTaskResult(own(events, 'ToolCallEnd')[0]!.text);
    expect(leadResult).toMatchObject({ status: 'failure', content: expect.stringContaining('the token budget is spent: 90 of 60 tokens used by this run and its tasks, so no further model request was made') });
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: false });
    const budgets = wraps(events).flatMap((w) => (w.event.type === 'Budget' ? [[w.event.step, w.event.limit, w.event.used]] : []));
    expect(budgets).toEqual([[1, 60, 10]]);
    const workerLast = o.model.requests.filter((r) => r.sender?.agentName === 'worker').at(-1)!;
    expect(workerLast.tools).toBeUndefined();
    expect(o.model.requests.filter((r) => r.sender?.agentName === 'lead')).toHaveLength(1);
  });

  it('call() and stream() charge alike; a per-run tokenBudget wins over the engine\'s', async () => {
    const o = await offline({ main: (t) => (t.step === 1 ? costing(70, { toolCalls: [{ name: 'todo', args: { todos: [] } }] }) : costing(70, { text: 'late' })) }, [], { tokenBudget: 10_000 });
    const called = await o.engine.call('go', { tokenBudget: 50 });
    const streamed = own(await collect(o.engine.stream('go', { tokenBudget: 50 })), 'RunEnd')[0]!;
    // The first request (70) spends the 50; the second is refused, never made.
    for (const end of [called, streamed]) expect(end).toMatchObject({ abnormal: true, steps: 1, error: expect.stringContaining('70 of 50 tokens used by this run and its tasks, so no further model request was made') });
    expect((await o.engine.call('go')).abnormal).toBe(false);
  });

  it('a background task draws from its parent\'s pool (by reference: it outlives the parent run, the pool does too)', async () => {
    const o = await offline(
      {
        main: (t) => (t.step === 1 ? costing(90, { toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'bg', description: 'bg', background: true } }] }) : costing(5)),
        worker: worker(30),
      },
      [testAgent('worker')],
      { tokenBudget: 100 },
    );
    const result = await o.engine.call('go', { sessionId: 's' });
    const [task] = o.engine.tasks.list();
    const info = await settled(o.engine.tasks, task!.taskId);
    // 10 were left when it started: one request of its own let through (the pool's last cost 90, so
    // it is its last, without tools), which spends the pool; whoever asks next is refused.
    expect(info.state).toBe('failed');
    expect(info.result).toMatch(/the token budget is spent: 120 of 100 tokens used/);
    const workerRequests = o.model.requests.filter((r) => r.sender?.agentName === 'worker');
    expect(workerRequests.length).toBeLessThanOrEqual(1);
    // The parent's second request is refused: the tree spent 90 + 30, one request past the 100.
    expect(result).toMatchObject({ abnormal: true, error: expect.stringContaining('120 of 100 tokens used by this run and its tasks, so no further model request was made') });
    expect(o.model.requests).toHaveLength(2);
  });
});
