import { afterEach, describe, expect, it } from 'vitest';
import type { RunEndEvent } from '../../src/events/agent-event.js';
import { unwrapEvent } from '../../src/events/operators/unwrap-task-events.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps, taskReply } from '../support/delegation-script.js';
import { estimateUsage, type FakeUsage, type RecordedRequest } from '../support/fake-openai-server.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** What the server reported for some requests, summed. */
function reported(requests: readonly RecordedRequest[]): FakeUsage {
  const sum = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  for (const r of requests) {
    const usage = r.reply?.usage || estimateUsage(r.body, r.reply ?? {});
    sum.prompt_tokens += usage.prompt_tokens;
    sum.completion_tokens += usage.completion_tokens;
    sum.total_tokens += usage.total_tokens;
  }
  return sum;
}

const tokens = (end: RunEndEvent) => ({
  prompt_tokens: end.metrics.promptTokens,
  completion_tokens: end.metrics.completionTokens,
  total_tokens: end.metrics.totalTokens,
});

describe('metrics of a delegating run', () => {
  it("add every child's usage to the parent and count the tasks", async () => {
    f = await startDelegationFixture({
      main: steps(multitaskReply([[1, 'alpha', 'a', 'x'], [2, 'alpha', 'bb', 'y'], [3, 'beta', 'ccc', 'z']])),
      alpha: (t) => ({ text: `alpha ${t.prompt}`, usage: { prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 } }),
      beta: (t) => ({ text: `beta ${t.prompt}` }),
    });
    const events = await collect(f.engine({}, [testAgent('alpha'), testAgent('beta')]).stream('go'));
    const end = own(events, 'RunEnd')[0]!;
    expect(tokens(end)).toEqual(reported(f.server.requests));
    expect(end.metrics.tasks).toBe(3);
    // Each child's own RunEnd holds only its usage, and no tasks.
    const childEnds = events.flatMap((e) => (e.type === 'TaskWrap' && e.event.type === 'RunEnd' ? [e] : []));
    expect(childEnds).toHaveLength(3);
    for (const w of childEnds) {
      const child = w.event as RunEndEvent;
      const mine = f.requestsOf(w.agentName).filter((r) => r.body.messages?.at(-1)?.content === child.text.split(' ')[1]);
      expect(tokens(child)).toEqual(reported(mine));
      expect(child.metrics.tasks).toBe(0);
    }
    // The children really counted: the parent's total is more than its own requests.
    expect(end.metrics.totalTokens).toBeGreaterThan(reported(f.requestsOf('main')).total_tokens);
  });

  it('count nested tasks up the tree, with usage of every level', async () => {
    f = await startDelegationFixture({
      main: steps(taskReply('alpha', 'split it')),
      alpha: steps(multitaskReply([[1, 'beta', 'one', 'x'], [2, 'beta', 'two', 'y']])),
      beta: (t) => ({ text: `beta ${t.prompt}` }),
    });
    const events = await collect(f.engine({ maxDepth: 2 }, [testAgent('alpha'), testAgent('beta')]).stream('go'));
    const end = own(events, 'RunEnd')[0]!;
    expect(end.metrics.tasks).toBe(3);
    expect(tokens(end)).toEqual(reported(f.server.requests));
    const alphaEnd = events.map(unwrapEvent).find((u) => u.path.length === 1 && u.event.type === 'RunEnd')!.event as RunEndEvent;
    expect(alphaEnd.metrics.tasks).toBe(2);
    expect(tokens(alphaEnd)).toEqual(reported([...f.requestsOf('alpha'), ...f.requestsOf('beta')]));
  });

  it('count a task whose child failed, with the usage it spent', async () => {
    f = await startDelegationFixture({
      main: steps(taskReply('alpha', 'x')),
      alpha: steps({ toolCalls: [{ name: 'list', arguments: {} }] }, { status: 400, errorMessage: 'context too long' }),
    });
    const events = await collect(f.engine({}, [testAgent('alpha')]).stream('go'));
    const end = own(events, 'RunEnd')[0]!;
    expect(own(events, 'ToolCallEnd')[0]!.text).toContain('<result_status>failure</result_status>');
    expect(end.metrics.tasks).toBe(1);
    // The failed second request reported nothing; the first one's usage still counts.
    expect(tokens(end)).toEqual(reported(f.server.requests.filter((r) => r.status === 200)));
  });
});

describe('metrics of a task cancelled by id', () => {
  const U = (n: number) => ({ prompt_tokens: n, completion_tokens: 0, total_tokens: n });
  /** The child's first step spends `n` tokens; its second hangs until the task is cancelled. */
  const spendsThenHangs = (n: number) => (t: { step: number }) => (t.step === 1 ? { toolCalls: [{ name: 'list', arguments: {} }], usage: U(n) } : { hang: true as const });

  it.each([['stream()', true], ['call()', false]] as const)("still count what the child spent, under %s", async (_, streamed) => {
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? { ...taskReply('alpha', 'work'), usage: U(10) } : { text: 'main done', usage: U(10) }),
      alpha: spendsThenHangs(1000),
    });
    const engine = f.engine({}, [testAgent('alpha')]);
    const ended = streamed ? collect(engine.stream('go')).then((events) => own(events, 'RunEnd')[0]!.metrics) : engine.call('go').then((r) => r.metrics);
    await f.server.waitForRequests(3, 5000); // main, alpha's first step, alpha's hanging second
    const [task] = engine.tasks.list();
    expect(engine.cancelTask(task!.taskId)).toBe(true);
    const metrics = await ended;
    expect({ total: metrics.totalTokens, tasks: metrics.tasks }).toEqual({ total: 1020, tasks: 1 });
    expect(engine.tasks.get(task!.taskId)).toMatchObject({ state: 'cancelled', metrics: { totalTokens: 1000 } });
  });

  it('count the usage of the cancelled child\'s own children, finished and stopped with it', async () => {
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? { ...taskReply('lead', 'split it'), usage: U(10) } : { text: 'main done', usage: U(10) }),
      lead: (t) => (t.step === 1 ? { ...multitaskReply([[1, 'done', 'a', 'x'], [2, 'slow', 'b', 'y']]), usage: U(100) } : { hang: true }),
      done: () => ({ text: 'finished', usage: U(300) }),
      slow: spendsThenHangs(500),
    });
    const engine = f.engine({ maxDepth: 2 }, [testAgent('lead'), testAgent('done'), testAgent('slow')]);
    const ended = collect(engine.stream('go'));
    await f.server.waitForRequests(5, 5000); // main, lead, done, slow's two steps
    const lead = engine.tasks.list().find((t) => t.agentName === 'lead')!;
    expect(engine.cancelTask(lead.taskId)).toBe(true);
    const end = own(await ended, 'RunEnd')[0]!;
    expect({ total: end.metrics.totalTokens, tasks: end.metrics.tasks }).toEqual({ total: 10 + 100 + 300 + 500 + 10, tasks: 3 });
  });
});
