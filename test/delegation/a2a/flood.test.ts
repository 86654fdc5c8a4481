import { lastValueFrom, tap, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import { YIELD_EVERY } from '../../../src/delegation/a2a/a2a-launcher.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { steps, taskReply } from '../../support/delegation-script.js';
import { startScriptedRemote, type ScriptedRemote } from './scripted-remote.js';

const open = closedAfterEach<{ remote: ScriptedRemote; fixture: DelegationFixture }>(['remote', 'fixture']);

describe('a remote A2A agent that floods its task with status updates', () => {
  it('10,000 status updates reach the parent coalesced (a bounded few events, the latest progress kept); the task completes, the event loop keeps turning', async () => {
    open.remote = await startScriptedRemote('flood', 10_000);
    open.fixture = await startDelegationFixture({ main: steps(taskReply('remote', 'Do the job', 'Flooded job')) });
    const engine = open.fixture.engine({}, [defineAgent({ name: 'remote', description: 'A remote agent', systemPrompt: '', a2a: open.remote.cardUrl })]);
    // Turns of the event loop while the remote task runs: other work (other runs, sockets) gets its share.
    let childRunning = false;
    let turns = 0;
    const ticker = (): void => {
      if (childRunning) turns += 1;
      immediate = setImmediate(ticker);
    };
    let immediate = setImmediate(ticker);
    const events: AgentEvent[] = await lastValueFrom(
      engine.stream('Delegate it').pipe(
        tap((event) => {
          if (isTaskWrap(event)) childRunning = event.event.type !== 'RunEnd';
        }),
        toArray(),
      ),
    );
    clearImmediate(immediate);
    await engine.close();

    const child = (events.filter(isTaskWrap) as TaskWrapEvent[]).map((w) => w.event);
    expect(child.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'the flood is over' });
    const progress = child.flatMap((e) => (e.type === 'ReasonDelta' && e.kind === 'thinking' ? [e.text] : []));
    // At most one forwarding per 100 ms: 200 would take the flood 20 s (it takes about one).
    expect(progress.length).toBeLessThan(200);
    expect(progress[0]).toBe('tick 1\n');
    expect(progress.at(-1)).toBe('tick 10000\n'); // the latest progress is never lost
    // The stream holds a few status messages, not the 10,000 (some 110,000 characters) sent.
    expect(progress.join('').length).toBeLessThan(200 * 'tick 10000\n'.length);
    expect(events.length).toBeLessThan(300);
    // The updates are handled YIELD_EVERY at a time at most, other work in between.
    expect(turns).toBeGreaterThanOrEqual(10_000 / YIELD_EVERY);
  });
});
