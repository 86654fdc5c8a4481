/**
 * The engine options `a2a.maxUpdates` and `a2a.maxChars`: checked when the engine is made,
 * and the bounds of every remote task its definitions send.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, TaskWrapEvent } from '../../../src/events/agent-event.js';
import type { HarnessEngineOptions } from '../../../src/engine/engine-options.js';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../../src/model/scripted-model.js';
import { isTaskWrap } from '../../../src/events/guards.js';
import { defineAgent } from '../../../src/subagent/define-agent.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { startDelegationFixture, type DelegationFixture } from '../../support/delegation-fixture.js';
import { steps, taskReply } from '../../support/delegation-script.js';
import { artifact, startWireRemote, status, task, type StreamScript, type WireRemote } from './wire-remote.js';

const open = closedAfterEach<{ remote: WireRemote; fixture: DelegationFixture }>(['remote', 'fixture']);

async function childOf(a2a: HarnessEngineOptions['a2a'], script: StreamScript): Promise<AgentEvent[]> {
  open.remote = await startWireRemote(script);
  open.fixture = await startDelegationFixture({ main: steps(taskReply('remote', 'Do the job', 'Remote job')) });
  const engine = open.fixture.engine({ a2a }, [defineAgent({ name: 'remote', description: 'A remote agent', systemPrompt: '', a2a: open.remote.cardUrl })]);
  const events = await lastValueFrom(engine.stream('Delegate it').pipe(toArray()));
  await engine.close();
  await vi.waitFor(() => expect(open.remote!.open()).toBe(0), { timeout: 10_000 });
  return (events.filter(isTaskWrap) as TaskWrapEvent[]).map((w) => w.event);
}

const talkative: StreamScript = (send, res) => {
  send(task('working'));
  for (let i = 1; i < 10; i++) send(status('working', `step ${i}`));
  send(artifact('done'));
  send(status('completed'));
  res.end();
};

describe('the engine options a2a.maxUpdates and a2a.maxChars', () => {
  it('bound each remote task: past maxUpdates it fails naming the option; within it completes', async () => {
    const over = await childOf({ maxUpdates: 5 }, talkative);
    expect(over.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining("more than 5 updates without finishing (the engine's a2a.maxUpdates)") });
    await open.fixture!.close();
    await open.remote!.close();
    open.fixture = undefined;
    open.remote = undefined;
    const within = await childOf({ maxUpdates: 20, maxChars: 100 }, talkative);
    expect(within.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
  });

  it('past maxChars it fails naming the option', async () => {
    const over = await childOf({ maxChars: 50 }, (send) => (send(task('working')), send(artifact('y'.repeat(60)))));
    expect(over.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringContaining("more than 50 characters of text (the engine's a2a.maxChars)") });
  });

  it.each([0, -1, 1.5, Number.POSITIVE_INFINITY, Number.NaN, '5'])('%s is refused when the engine is made, naming the option', (value) => {
    const model = new ScriptedModel([{ text: 'ok' }]);
    for (const key of ['maxUpdates', 'maxChars']) {
      const make = () => new HarnessEngine({ model, a2a: { [key]: value } as HarnessEngineOptions['a2a'] });
      expect(make).toThrow(RangeError);
      expect(make).toThrow(`HarnessEngine: \`a2a.${key}\` must be an integer >= 1, got ${typeof value === 'string' ? `"${value}"` : String(value)}`);
    }
  });
});
