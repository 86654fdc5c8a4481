import { lastValueFrom, tap, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import type { HarnessEngineOptions } from '../../../src/engine/engine-options.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { leakedResources, resourceCounts } from '../../support/active-resources.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { steps, taskReply } from '../../support/delegation-script.js';
import { startScriptedRemote, type ScriptedRemote } from './scripted-remote.js';

const open = closedAfterEach<{ remote: ScriptedRemote; fixture: DelegationFixture }>(['remote', 'fixture']);

/** A main agent that gives one task to the `remote` agent; every event of the run, and the timers it left. */
async function delegate(options: Partial<HarnessEngineOptions>): Promise<{ events: AgentEvent[]; leakedTimers: number | undefined }> {
  open.fixture = await startDelegationFixture({ main: steps(taskReply('remote', 'Do the job', 'Remote job')) });
  const engine = open.fixture.engine(options, [defineAgent({ name: 'remote', description: 'A remote agent', systemPrompt: '', a2a: open.remote!.cardUrl })]);
  const baseline = resourceCounts();
  const events = await lastValueFrom(engine.stream('Delegate it').pipe(toArray()));
  await engine.close();
  await vi.waitFor(() => expect(open.remote!.open()).toBe(0), { timeout: 10_000 }); // the stream was dropped
  return { events, leakedTimers: (await leakedResources(baseline)).Timeout };
}

function childEnd(events: readonly AgentEvent[]): AgentEvent {
  const child = (events.filter(isTaskWrap) as TaskWrapEvent[]).map((w) => w.event);
  expect(child.filter((e) => e.type === 'RunEnd' || e.type === 'RunCancelled')).toHaveLength(1);
  expect(events.filter((e) => e.type === 'RunEnd')).toHaveLength(1); // the parent's own, last
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  return child.at(-1)!;
}

describe('a remote A2A agent that goes silent', () => {
  it('is cancelled after a2a.idleTimeoutMs without an update: tasks/cancel reaches it, the task fails naming the agent, its URL and the timeout', async () => {
    open.remote = await startScriptedRemote('stall');
    // Only the timers' clock is faked: the timeout runs out once the remote has taken the task (before, nothing needs cancelling).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const running = delegate({ a2a: { idleTimeoutMs: 300 } });
    await open.remote.streamOpened();
    vi.advanceTimersByTime(300);
    vi.useRealTimers();
    const { events, leakedTimers } = await running;
    const url = open.remote.cardUrl.replaceAll('.', '\\.');
    expect(childEnd(events)).toMatchObject({
      type: 'RunEnd',
      abnormal: true,
      error: expect.stringMatching(new RegExp(`^the remote A2A agent remote \\(${url}\\) sent nothing for 300 ms \\(the engine's a2a\\.idleTimeoutMs\\), so its task was cancelled$`)),
    });
    // The parent's model read the failure as the task's result.
    expect(JSON.stringify(open.fixture!.requestsOf('main').at(-1)!.body.messages!.at(-1))).toContain('sent nothing for 300 ms');
    // Sent at once, or (a remote that had not yet named its task) as soon as it does.
    await vi.waitFor(() => expect(open.remote!.requests.filter((r) => /cancel/i.test(r.rpc ?? ''))).toHaveLength(1), { timeout: 10_000 });
    expect(leakedTimers).toBeUndefined();
  });

  it('runs out while the card is still being read: the card read stops at once, and a card that comes late starts nothing (no message/stream, no tasks/cancel)', async () => {
    const remote = (open.remote = await startScriptedRemote('slow-card'));
    open.fixture = await startDelegationFixture({ main: steps(taskReply('remote', 'Do the job', 'Remote job')) });
    const engine = open.fixture.engine({ a2a: { idleTimeoutMs: 100 } }, [defineAgent({ name: 'remote', description: 'A remote agent', systemPrompt: '', a2a: remote.cardUrl })]);
    // Only the timers' clock is faked: the idle timeout runs out when the card's request has arrived, not before.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const done = lastValueFrom(
        engine.stream('Delegate it').pipe(
          // The card comes the moment the task has timed out: unfixed, the client went on to send the task, then cancel it.
          tap((event) => isTaskWrap(event) && event.event.type === 'RunEnd' && remote.releaseCard()),
          toArray(),
        ),
      );
      await remote.cardAsked();
      vi.advanceTimersByTime(100);
      vi.useRealTimers();
      const events = await done;
      expect(childEnd(events)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining('sent nothing for 100 ms') });
      expect(await remote.cardOutcome()).toBe('dropped'); // the client closed the card's request itself
      expect(remote.requests.map((r) => r.method)).toEqual(['GET']);
    } finally {
      vi.useRealTimers();
      await engine.close();
    }
  });

  it('each update restarts the timeout: a remote that keeps talking finishes, though its task took longer than the timeout', async () => {
    const remote = (open.remote = await startScriptedRemote('paced', 4));
    open.fixture = await startDelegationFixture({ main: steps(taskReply('remote', 'Do the job', 'Remote job')) });
    const engine = open.fixture.engine({ a2a: { idleTimeoutMs: 400 } }, [defineAgent({ name: 'remote', description: 'A remote agent', systemPrompt: '', a2a: remote.cardUrl })]);
    const baseline = resourceCounts();
    const child = childWatch();
    // Only the timers' clock is faked, and the test paces the remote: time passes only between
    // an update handled and the next one sent, so no stall of a busy machine can fake a silence.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const done = lastValueFrom(engine.stream('Delegate it').pipe(tap(child.see), toArray()));
      await child.until('RunStart'); // the task was taken: its timeout counts from here
      for (let tick = 1; tick <= 4; tick++) {
        vi.advanceTimersByTime(300); // three quarters of the timeout: 1,200 ms before the last update
        const handled = child.until(`tick ${tick}\n`);
        remote.step();
        await handled;
      }
      vi.advanceTimersByTime(300); // 1,500 ms in all, 3.75 timeouts, and still running
      vi.useRealTimers();
      remote.step(); // the artifact and `completed`
      const events = await done;
      await engine.close();
      expect(childEnd(events)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the flood is over' });
      expect(remote.requests.filter((r) => /cancel/i.test(r.rpc ?? ''))).toHaveLength(0);
      await vi.waitFor(() => expect(remote.open()).toBe(0), { timeout: 10_000 });
      expect((await leakedResources(baseline)).Timeout).toBeUndefined();
    } finally {
      vi.useRealTimers();
      await engine.close();
    }
  });
});

/**
 * Watches the child's events (pass `see` to `tap`): `until(key)` resolves when a child event
 * with that type, or a delta with that text, has come, and rejects if the child ended first.
 * Register before causing the event.
 */
function childWatch(): { see: (event: AgentEvent) => void; until: (key: string) => Promise<void> } {
  const waiting = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
  let ended: AgentEvent | undefined;
  const endedBefore = (what: string): Error => new Error(`the task ended before ${JSON.stringify(what)}: ${JSON.stringify(ended)}`);
  return {
    see: (event) => {
      if (!isTaskWrap(event)) return;
      const inner = event.event;
      const key = inner.type === 'ReasonDelta' ? inner.text : inner.type;
      waiting.get(key)?.resolve();
      waiting.delete(key);
      if (inner.type !== 'RunEnd') return;
      ended = inner;
      for (const [what, waiter] of waiting) waiter.reject(endedBefore(what));
      waiting.clear();
    },
    until: (key) => new Promise<void>((resolve, reject) => (ended ? reject(endedBefore(key)) : waiting.set(key, { resolve, reject }))),
  };
}
