/**
 * A multitask flood: thousands of tasks in one call, duplicate descriptions, unknown agents
 * mixed in, a pool far smaller than the list. Run to the end, every task keeps its own result
 * in index order; cancelled in the middle, every child request is aborted, no queued task
 * starts, every task is settled, and nothing (timer, socket, abort listener) is left.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, record, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskArgs, multitaskReply, steps, type TaskTuple } from '../support/delegation-script.js';
import { handleCounts, leakedHandles } from '../support/handle-counts.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

const startOffline = offlineEnginePerTest();
let fixture: DelegationFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

/** `n` tasks, all described alike; every 7th names an agent nobody defined. */
function flood(n: number): TaskTuple[] {
  return Array.from({ length: n }, (_, i) => [i + 1, i % 7 === 6 ? 'ghost' : 'alpha', `job ${i + 1}`, 'same label'] as const);
}

describe('a multitask of 10,000 tasks', () => {
  it('returns one result per task in index order, the unknown agents failed by name, one unwrapped RunEnd last', async () => {
    const tasks = flood(10_000);
    const o = await startOffline(
      { main: scriptedSteps({ toolCalls: [{ name: 'multitask', args: multitaskArgs(tasks) }] }), alpha: (t) => ({ text: `did ${t.prompt}` }) },
      [testAgent('alpha')],
      { multitaskMaxTasks: 8, multitaskMaxItems: 10_000 },
    );
    const events = await collect(o.engine.stream('go'));
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: false });
    expect(own(events, 'RunEnd')).toHaveLength(1);
    // every task ended inside its wrap (a refused one too), never as the parent's end
    expect(wraps(events).filter((w) => w.event.type === 'RunEnd')).toHaveLength(10_000);
    const text = own(events, 'ToolCallEnd')[0]!.text;
    expect(text.startsWith('<multitask_results>\n')).toBe(true);
    expect(text.endsWith('\n</multitask_results>')).toBe(true);
    // (an entry cut to its share of the call's budget has a line break before its marker)
    const results = [...text.matchAll(/<task_result>[\s\S]*?<\/task_result>/g)].map((m) => m[0]);
    expect(results.map((l) => Number(/^<task_result><index>(\d+)<\/index>/.exec(l)?.[1]))).toEqual(tasks.map((t) => t[0]));
    results.forEach((line, i) => {
      // the long failures share the budget: each keeps its start, naming the agent and the ones there are
      if (tasks[i]![1] === 'ghost') expect(line).toMatch(/<result_status>failure<\/result_status><result_content><!\[CDATA\[ERROR: .*ghost.*alpha.*\n\[\.\.\. \d+ characters truncated by rxharness \.\.\.\]\]\]>/);
      else expect(line).toContain(`<result_status>success</result_status><result_content><![CDATA[did job ${i + 1}]]>`);
    });
    expect(new Set(o.engine.tasks.list().map((t) => t.state))).toEqual(new Set(['done']));
  }, 120_000);

  it('refuses a list with an index used twice before any task starts, naming it', async () => {
    const tasks = flood(10_000).map((t, i): TaskTuple => (i === 9_999 ? [5_000, t[1], t[2], t[3]] : t));
    const o = await startOffline(
      { main: scriptedSteps({ toolCalls: [{ name: 'multitask', args: multitaskArgs(tasks) }] }), alpha: (t) => ({ text: t.prompt }) },
      [testAgent('alpha')],
      { multitaskMaxTasks: 8, multitaskMaxItems: 10_000 },
    );
    const result = await o.engine.call('go');
    expect(result.text).toContain('index 5000 is used twice');
    expect(o.model.requests).toHaveLength(2); // the main agent's two steps; no child ran
  }, 60_000);
});

describe('a multitask flood aborted in the middle', () => {
  it('aborts every child request, starts no queued task, settles every task and leaves nothing behind', async () => {
    const baseline = handleCounts();
    const tasks = flood(2_000);
    // The first 30 tasks answer at once; the rest hang until aborted.
    fixture = await startDelegationFixture({
      main: steps(multitaskReply(tasks)),
      alpha: (turn) => (Number(/job (\d+)/.exec(turn.prompt)?.[1]) <= 30 ? { text: `did ${turn.prompt}` } : { hang: true }),
    });
    const engine = fixture.engine({ multitaskMaxTasks: 8, multitaskMaxItems: 2_000 }, [testAgent('alpha')]);
    const { server } = fixture;
    const controller = new AbortController();
    const run = record(engine.stream('go', { signal: controller.signal }));
    const answered = tasks.filter((t) => t[1] === 'alpha' && t[0] <= 30).length;
    // main, the children that answered, and a full pool of hanging ones
    await server.waitForRequests(1 + answered + 8, 30_000);
    const seen = server.requests.length;
    controller.abort();
    await run.done;

    expect(run.error).toMatchObject({ name: 'AbortError' });
    expect(own(run.events, 'RunEnd')).toHaveLength(0);
    const children = server.requests.slice(1);
    expect(children).toHaveLength(answered + 8);
    for (const child of children.slice(answered)) expect((await server.waitForClosed(child.index, 30_000)).aborted).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const states = engine.tasks.list().map((t) => t.state);
    expect(states.filter((s) => s === 'running' || s === 'queued')).toEqual([]);
    // (the tracker keeps the newest 1,000 tasks: the ones that answered are counted from the stream)
    expect(wraps(run.events).filter((w) => w.event.type === 'RunEnd' && !w.event.abnormal)).toHaveLength(answered);
    await new Promise((resolve) => setTimeout(resolve, 50)); // a queued task would have started by now
    expect(server.requests).toHaveLength(seen);

    await fixture.close();
    fixture = undefined;
    expect(await leakedHandles(baseline)).toEqual({});
  }, 120_000);
});
