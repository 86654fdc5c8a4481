/**
 * What a task that never ran shows is cut at maxResultChars like any result: a refused
 * task's `RunStart.prompt` carried the model's whole prompt (a megabyte for an unknown agent,
 * once per refused entry), and a refused `task` call's text was never cut (the unknown-agent
 * error lists every visible agent with its description, so it grows with them). A task
 * cancelled while it waited for a pool slot shows its prompt the same way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskQueuedEvent } from '../../src/events/agent-event.js';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { testAgent, testAgentPrompt } from '../support/agent-turns.js';
import { collect, own, record, wraps } from '../support/collect-events.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

const startOffline = offlineEnginePerTest();

const MAX = 2_000;
/** The marker a cut ends with: `\n[... N characters truncated by rxharness ...]`. */
const MARKER_ROOM = 60;
const PROMPT = `find the bug ${'p'.repeat(100_000)}`;
/** 40 agents of 1,000-character descriptions: the unknown-agent error lists them all (about 41,000 characters). */
const AGENTS = Array.from({ length: 40 }, (_, i) =>
  defineAgent({ name: `agent${i}`, description: `Agent ${i}: ${'d'.repeat(1_000)}`, systemPrompt: testAgentPrompt(`agent${i}`) }),
);

describe('a task refused before it starts', () => {
  it('shows the prompt and the error cut at maxResultChars in its events, its result and its call', async () => {
    const o = await startOffline(
      {
        main: scriptedSteps(
          { toolCalls: [{ name: 'task', args: { agent_name: 'ghost', prompt: PROMPT, description: 'one' } }] },
          { toolCalls: [{ name: 'multitask', args: { tasks: [{ index: 1, agent_name: 'ghost', prompt: PROMPT, description: 'two' }] } }] },
        ),
      },
      AGENTS,
      { maxResultChars: MAX },
    );
    const events = await collect(o.engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });

    // Both refusals: a wrapped RunStart with the prompt's start and the marker, and an abnormal RunEnd.
    const refused = wraps(events);
    expect(refused.map((w) => w.event.type)).toEqual(['RunStart', 'RunEnd', 'RunStart', 'RunEnd']);
    for (const w of refused) {
      if (w.event.type === 'RunStart') {
        expect(w.event.prompt.startsWith(PROMPT.slice(0, MAX))).toBe(true);
        expect(w.event.prompt).toMatch(/\n\[\.\.\. \d+ characters truncated by rxharness \.\.\.\]$/);
        expect(w.event.prompt.length).toBeLessThanOrEqual(MAX + MARKER_ROOM);
      }
      if (w.event.type === 'RunEnd') {
        expect(w.event.error).toMatch(/^unknown agent "ghost"/);
        expect(w.event.error!.length).toBeLessThanOrEqual(MAX + MARKER_ROOM);
      }
    }

    const [single, multi] = own(events, 'ToolCallEnd');
    // The call's text: the content cut at maxResultChars and marked, within one line's XML.
    expect(single!.text).toMatch(/<result_content><!\[CDATA\[ERROR: unknown agent "ghost"[^]*\n\[\.\.\. \d+ characters truncated by rxharness \.\.\.\]\]\]><\/result_content>/);
    expect(single!.text.length).toBeLessThanOrEqual(MAX + MARKER_ROOM + 300);
    expect(single!.error!.length).toBeLessThanOrEqual(MAX + MARKER_ROOM);
    expect(multi!.text.length).toBeLessThanOrEqual(MAX + MARKER_ROOM + 300);
  });
});

describe('a task cancelled while it waits for a pool slot', () => {
  let f: DelegationFixture | undefined;
  afterEach(() => f?.close());

  it('shows its prompt cut at maxResultChars in its RunStart', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    f = await startDelegationFixture({
      main: steps(multitaskReply([[1, 'alpha', 'job 1', 'first'], [2, 'alpha', PROMPT, 'second']])),
      alpha: async (turn) => {
        await gate;
        return { text: `did ${turn.prompt.slice(0, 5)}` };
      },
    });
    const engine = f.engine({ multitaskMaxTasks: 1, maxResultChars: MAX }, [testAgent('alpha')]);
    const run = record(engine.stream('go'));
    // The second task queues at once, behind the first (one slot).
    const queued = () => run.events.find((e): e is TaskQueuedEvent => e.type === 'TaskQueued');
    for (let i = 0; i < 2_000 && !queued(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(engine.cancelTask(queued()!.taskId)).toBe(true);
    release();
    await run.done;
    const start = wraps(run.events).find((w) => w.taskId === queued()!.taskId && w.event.type === 'RunStart')!.event;
    expect(start.type === 'RunStart' && start.prompt.startsWith(PROMPT.slice(0, MAX))).toBe(true);
    expect(JSON.stringify(start).length).toBeLessThanOrEqual(MAX + MARKER_ROOM + 200);
  });
});
