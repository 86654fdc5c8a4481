import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { steps, taskReply } from '../../support/delegation-script.js';
import { startHostileAgent, type HostileAgent, type Hostility } from './hostile-a2a-server.js';

let fixture: DelegationFixture | undefined;
let hostile: HostileAgent | undefined;
afterEach(async () => {
  await hostile?.close();
  await fixture?.close();
  fixture = hostile = undefined;
});

/** Runs a main agent that gives one task to the remote agent at `cardUrl`; resolves with every event. */
async function delegateTo(cardUrl: string): Promise<AgentEvent[]> {
  fixture = await startDelegationFixture({ main: steps(taskReply('remote', 'Do the job', 'Hostile job')) });
  const engine = fixture.engine({}, [defineAgent({ name: 'remote', description: 'A remote agent', systemPrompt: '', a2a: cardUrl })]);
  try {
    return await lastValueFrom(engine.stream('Delegate it').pipe(toArray()));
  } finally {
    await engine.close();
  }
}

/** The task's child events, and checks every run ended exactly once. */
function childOf(events: readonly AgentEvent[]): AgentEvent[] {
  expect(events.filter((e) => e.type === 'RunEnd')).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  const child = (events.filter(isTaskWrap) as TaskWrapEvent[]).map((w) => w.event);
  expect(child.filter((e) => e.type === 'RunEnd' || e.type === 'RunCancelled')).toHaveLength(1);
  expect(child.at(-1)!.type).toBe('RunEnd');
  return child;
}

describe('a hostile remote A2A agent: the task fails with a clear message, bounded, with one terminal event', () => {
  it.each<[Hostility, RegExp]>([
    ['garbage', /remote A2A agent remote \(http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json\) failed: .*parse/i],
    ['huge-event', /failed: .*exceeded the maximum allowed size/],
    ['endless-status', /failed: it sent more than 25000 updates without finishing/],
    ['endless-artifacts', /failed: it sent more than 1000000 characters of text/],
    ['rpc-error', /failed: .*the hostile agent broke/],
    ['failed-task', /ended its task failed: out of ideas/],
    ['no-final-state', /ended its stream without a final state/],
  ])('%s', async (hostility, why) => {
    hostile = await startHostileAgent(hostility);
    const events = await delegateTo(hostile.cardUrl);
    const end = childOf(events).at(-1)!;
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringMatching(why) });
    expect(JSON.stringify(fixture!.requestsOf('main').at(-1)!.body.messages!.at(-1))).toContain('remote task ended abnormally');
    await vi.waitFor(() => expect(hostile!.open()).toBe(0)); // the stream was dropped, not left reading
  });

  it('an unreachable card', async () => {
    hostile = await startHostileAgent('garbage');
    const cardUrl = hostile.cardUrl;
    await hostile.close();
    const end = childOf(await delegateTo(cardUrl)).at(-1)!;
    expect(end).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringMatching(/^the remote A2A agent remote \(.*\) failed: fetch failed/) });
  });
});
