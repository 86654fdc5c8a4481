import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, BudgetEvent, TaskWrapEvent } from '../../src/events/agent-event.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { parseTaskResult, settled } from '../support/lifecycle-script.js';
import { offlineEngine, type OfflineEngine } from '../support/offline-engine.js';
import type { ScriptedRoute } from '../support/scripted-routes.js';

let o: OfflineEngine | undefined;
afterEach(() => o?.cleanup());

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
  it('a multitask past the budget: the first tasks finish, the one that spends it ends after a last no-tools step, the rest are refused; then the parent\'s last step', async () => {
    o = await offlineEngine(
      { main: (t) => (t.step === 1 ? costing(100, multitask(4)) : costing(50, { text: `summary (tools offered: ${t.toolNames.length})` })), worker: worker(200) },
      [testAgent('worker')],
      { tokenBudget: 1000, multitaskMaxTasks: 1 },
    );
    const events = await collect(o.engine.stream('go'));
    // main 100; t1 200+200 → 500; t2 200+200 → 900; t3 step 1 200 → 1100: spent, its step 2 (200 more) is its last, without tools.
    const ends = Object.fromEntries(innerEnds(events)) as Record<string, { abnormal: boolean; error?: string; steps: number }>;
    expect(ends['t1']).toMatchObject({ abnormal: false, steps: 2 });
    expect(ends['t2']).toMatchObject({ abnormal: false, steps: 2 });
    expect(ends['t3']).toMatchObject({ abnormal: true, steps: 2, error: expect.stringMatching(/^the token budget is spent: 1300 of 1000 tokens used/) });
    expect(ends['t4']).toMatchObject({ abnormal: true, steps: 0, error: 'no token budget is left for this task: 1300 of 1000 tokens are used' });
    // t3's last request offered no tools; t4 never reached the model.
    const workerRequests = o.model.requests.filter((r) => r.sender?.agentName === 'worker');
    expect(workerRequests).toHaveLength(6);
    expect(workerRequests.at(-1)!.tools).toBeUndefined();
    expect(workerRequests.at(-2)!.tools?.length).toBeGreaterThan(0);
    // The parent's own last step: no tools (the budget is spent), then an abnormal end naming it.
    const end = own(events, 'RunEnd')[0]!;
    expect(end).toMatchObject({ abnormal: true, text: 'summary (tools offered: 0)', error: expect.stringMatching(/^the token budget is spent: 1350 of 1000/) });
    // Exact accounting: the budget charged what the model reported, and the metrics agree.
    expect(end.metrics.totalTokens).toBe(1350);
    const budgets = own(events, 'Budget') as BudgetEvent[];
    expect(budgets.map((b) => [b.step, b.used, b.remaining])).toEqual([
      [1, 100, 900],
      [2, 1350, 0],
    ]);
  });

  it('nested at depth 2: a grandchild draws from the same remainder, and a child\'s own budget can only be smaller', async () => {
    o = await offlineEngine(
      {
        main: (t) => (t.step === 1 ? costing(10, { toolCalls: [{ name: 'task', args: { agent_name: 'lead', prompt: 'p', description: 'lead' } }] }) : costing(10)),
        lead: (t) => (t.step === 1 ? costing(10, { toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'deep', description: 'deep' } }] }) : costing(10)),
        worker: worker(40),
      },
      [testAgent('lead', { tokenBudget: 60 }), testAgent('worker')],
      { tokenBudget: 10_000, maxDepth: 2 },
    );
    const events = await collect(o.engine.stream('go'));
    // lead's own budget 60: lead 10, worker 40 → 50 (10 left, so worker's step 2 is a normal
    // one) → 90. lead's budget binds, not main's 10,000: lead's next step is its last, without
    // tools, and it ends abnormally; main goes on with the failure result.
    const leadResult = parseTaskResult(own(events, 'ToolCallEnd')[0]!.text);
    expect(leadResult).toMatchObject({ status: 'failure', content: expect.stringContaining('the token budget is spent: 100 of 60 tokens used') });
    expect(own(events, 'RunEnd')[0]).toMatchObject({ abnormal: false });
    const budgets = wraps(events).flatMap((w) => (w.event.type === 'Budget' ? [[w.event.step, w.event.limit, w.event.used]] : []));
    expect(budgets).toEqual([
      [1, 60, 10],
      [2, 60, 100],
    ]);
    const leadLast = o.model.requests.filter((r) => r.sender?.agentName === 'lead').at(-1)!;
    expect(leadLast.tools).toBeUndefined();
  });

  it('call() and stream() charge alike; a per-run tokenBudget wins over the engine\'s', async () => {
    o = await offlineEngine({ main: (t) => (t.step === 1 ? costing(70, { toolCalls: [{ name: 'todo', args: { todos: [] } }] }) : costing(70, { text: 'late' })) }, [], { tokenBudget: 10_000 });
    const called = await o.engine.call('go', { tokenBudget: 50 });
    const streamed = own(await collect(o.engine.stream('go', { tokenBudget: 50 })), 'RunEnd')[0]!;
    for (const end of [called, streamed]) expect(end).toMatchObject({ abnormal: true, steps: 2, text: 'late', error: expect.stringContaining('140 of 50') });
    expect((await o.engine.call('go')).abnormal).toBe(false);
  });

  it('a background task has a budget of its own (its definition\'s, else the engine\'s), not its parent\'s remainder', async () => {
    o = await offlineEngine(
      {
        main: (t) => (t.prompt === 'next' ? costing(1) : t.step === 1 ? costing(90, { toolCalls: [{ name: 'task', args: { agent_name: 'worker', prompt: 'bg', description: 'bg', background: true } }] }) : costing(5)),
        worker: worker(30),
      },
      [testAgent('worker')],
      { tokenBudget: 100 },
    );
    const result = await o.engine.call('go', { sessionId: 's' });
    expect(result.abnormal).toBe(false); // main used 95 of 100
    const [task] = o.engine.tasks.list();
    const info = await settled(o.engine.tasks, task!.taskId);
    // Its own 100: 30 + 30 fit, although the parent had only 5 left when it started it.
    expect(info).toMatchObject({ state: 'done', result: 'did bg' });
  });
});
