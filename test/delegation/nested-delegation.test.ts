import { afterEach, describe, expect, it } from 'vitest';
import type { RunEndEvent, RunStartEvent } from '../../src/events/agent-event.js';
import { unwrapEvent } from '../../src/events/operators/unwrap-task-events.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, record, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type AgentRoute, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps } from '../support/delegation-script.js';

let f: DelegationFixture;
afterEach(() => f.close());

/**
 * main --multitask--> [alpha (which multitasks two betas), beta]; maxDepth 2, pool 1. With
 * one shared pool this would deadlock: alpha holds the only slot while its betas wait.
 */
async function nestedEngine(beta: AgentRoute) {
  f = await startDelegationFixture({
    main: steps(multitaskReply([[1, 'alpha', 'split the work', 'outer'], [2, 'beta', 'leaf', 'sibling']])),
    alpha: steps(multitaskReply([[1, 'beta', 'g1', 'inner one'], [2, 'beta', 'g2', 'inner two']])),
    beta,
  });
  return f.engine({ maxDepth: 2, multitaskMaxTasks: 1 }, [testAgent('alpha'), testAgent('beta')]);
}

describe('nested delegation (maxDepth 2, pool 1)', () => {
  it('finishes, with grandchild events wrapped twice', async () => {
    const engine = await nestedEngine((t) => ({ text: `beta did ${t.prompt}` }));
    const events = await collect(engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
    expect(own(events, 'RunEnd')).toHaveLength(1);

    const unwrapped = events.map(unwrapEvent);
    const alphaStart = unwrapped.find((u) => u.path.length === 1 && u.event.agentName === 'alpha' && u.event.type === 'RunStart')!;
    const grand = unwrapped.filter((u) => u.path.length === 2);
    expect(grand.length).toBeGreaterThan(0);
    expect(unwrapped.some((u) => u.path.length > 2)).toBe(false);
    for (const { event, path } of grand) {
      const [outer, inner] = path;
      expect(outer).toMatchObject({ taskAgentName: 'alpha', taskIndex: 1, parentRunId: events[0]!.runId, runId: alphaStart.event.runId });
      expect(inner).toMatchObject({ taskAgentName: 'beta', multitask: true, parentRunId: alphaStart.event.runId });
      expect(event.agentName).toBe('beta');
    }
    // Both grandchildren ran to their own RunEnd, in their own sessions.
    const grandStarts = grand.filter((u) => u.event.type === 'RunStart').map((u) => u.event as RunStartEvent);
    expect(grandStarts.map((s) => s.prompt).sort()).toEqual(['g1', 'g2']);
    const grandEnds = grand.filter((u) => u.event.type === 'RunEnd').map((u) => u.event as RunEndEvent);
    expect(grandEnds.map((e) => e.text).sort()).toEqual(['beta did g1', 'beta did g2']);
    // Alpha's delegation reached the main agent's result, and one pool of 1 never overlapped.
    const result = own(events, 'ToolCallEnd')[0]!.text;
    expect(result).toContain('beta did g1');
    expect(result).toContain('<![CDATA[beta did leaf]]>');
    expect(f.server.peakInFlight).toBe(1);
    expect(own(events, 'RunEnd')[0]!.metrics.tasks).toBe(4);
  });

  it('cancels the whole tree when unsubscribed mid-way', async () => {
    const engine = await nestedEngine(() => ({ hang: true }));
    const run = record(engine.stream('go'));
    await f.server.waitForRequests(3); // main, alpha, the first grandchild
    const grandchild = f.requestsOf('beta');
    expect(grandchild).toHaveLength(1);
    const seen = run.events.length;
    run.subscription.unsubscribe();

    expect((await f.server.waitForClosed(grandchild[0]!.index)).aborted).toBe(true);
    // Neither the second grandchild nor main's second task ever started.
    expect(f.server.requests).toHaveLength(3);
    // Recorded all the same (they waited, queued), and cancelled with the rest; only the
    // two that ran ever had a wrapped RunStart.
    expect(engine.tasks.list().map((t) => [t.agentName, t.state]).sort()).toEqual([
      ['alpha', 'cancelled'],
      ['beta', 'cancelled'],
      ['beta', 'cancelled'],
      ['beta', 'cancelled'],
    ]);
    const started = wraps(run.events).filter((w) => w.event.type === 'RunStart');
    expect(started).toHaveLength(1);
    expect(run.events).toHaveLength(seen);
  });
});
