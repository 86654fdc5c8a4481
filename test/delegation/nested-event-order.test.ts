import { lastValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { testAgent } from '../support/agent-turns.js';
import { scriptedRoutes } from '../support/scripted-routes.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// The run loop's phases are sequenced by hand since issue 28: attacked with two children of a
// multitask streaming 10,000 deltas each, every model answer synchronous (the stack and the
// order are what could break), and with the stream cut at every event of a smaller run.

const fresh = toolContextPerTest();

const textOf = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i + tag.length) % 26))).join('');

function engineOf(chars: number): { engine: HarnessEngine } {
  const tasks = [1, 2].map((index) => ({ index, agent_name: 'worker', prompt: `job ${index}`, description: `t${index}` }));
  const model = new ScriptedModel(
    scriptedRoutes({
      main: (turn) => (turn.step === 1 ? { toolCalls: [{ name: 'multitask', args: { tasks } }] } : { text: 'merged' }),
      worker: (turn) => ({ text: textOf(chars, turn.prompt) }),
    }),
    { chunkSize: 1 },
  );
  const engine = new HarnessEngine({ model, workspace: fresh.ws.dir, homeDir: fresh.ws.home, multitaskMaxTasks: 0 });
  engine.agents.add(testAgent('worker'));
  return { engine };
}

/** Checks the contract order of a whole run: one terminal event, last; each child's events wrapped whole, in order, inside the call. */
function checkOrder(events: readonly AgentEvent[], chars: number): void {
  const own = events.filter((e) => e.type !== 'TaskWrap');
  expect(own.filter((e) => e.type === 'RunEnd')).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'merged' });
  const callStart = events.findIndex((e) => e.type === 'ToolCallStart');
  const callEnd = events.findIndex((e) => e.type === 'ToolCallEnd');
  for (const description of ['t1', 't2']) {
    const wrapped = events.flatMap((e, i) => (e.type === 'TaskWrap' && e.taskDescription === description ? [{ i, event: e.event }] : []));
    expect(wrapped[0]!.event.type).toBe('RunStart');
    expect(wrapped.at(-1)!.event).toMatchObject({ type: 'RunEnd', abnormal: false });
    expect(wrapped.filter((w) => w.event.type === 'RunEnd')).toHaveLength(1);
    expect(wrapped.every((w) => w.i > callStart && w.i < callEnd)).toBe(true);
    const deltas = wrapped.flatMap((w) => (w.event.type === 'ReasonDelta' ? [w.event.text] : []));
    expect(deltas).toHaveLength(chars);
    expect(deltas.join('')).toBe(textOf(chars, `job ${description.slice(1)}`));
  }
}

describe('a delegation whose models answer synchronously', () => {
  it('two children of 10,000 deltas each: every event once, in order, one RunEnd', async () => {
    const { engine } = engineOf(10_000);
    const events = await lastValueFrom(engine.stream('go').pipe(toArray()));
    checkOrder(events, 10_000);
  });

  it('cut at every event: exactly the events before the cut, in order (the stream stops cleanly wherever it is cut)', async () => {
    const { engine: whole } = engineOf(20);
    const all = await lastValueFrom(whole.stream('go').pipe(toArray()));
    checkOrder(all, 20);
    for (let cut = 1; cut < all.length; cut++) {
      const { engine } = engineOf(20);
      const seen: AgentEvent[] = [];
      engine
        .stream('go')
        .pipe(take(cut))
        .subscribe((e) => seen.push(e));
      // Long enough for the whole run to end, had it gone on (it takes a few ticks of the pool).
      await lastValueFrom(whole.stream('again').pipe(toArray()));
      expect(seen.map((e) => (e.type === 'TaskWrap' ? `${e.taskDescription}:${e.event.type}` : e.type)), `cut at ${cut}`).toEqual(
        all.slice(0, cut).map((e) => (e.type === 'TaskWrap' ? `${e.taskDescription}:${e.event.type}` : e.type)),
      );
    }
  });
});
