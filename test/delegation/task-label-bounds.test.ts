/**
 * A hostile model's labels: a `description` of 50,000 characters and an `agent_name` no agent
 * has, 50,000 characters with control characters in it. Both were copied whole into every
 * event of the child (each `TaskWrap` a stream serializes anew), the result, the tracker and
 * the error; now the description is cut to MAX_TASK_DESCRIPTION_CHARS and the unknown name to
 * an agent name's length, each keeping its start.
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect, own, wraps } from '../support/collect-events.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { MAX_TASK_DESCRIPTION_CHARS } from '../../src/delegation/task-labels.js';
import { MAX_AGENT_NAME_CHARS } from '../../src/subagent/front-matter-schema.js';
import { MAX_QUOTED_NAME_CHARS } from '../../src/tools/args-validator.js';

const startOffline = offlineEnginePerTest();

const LONG_LABEL = `scan the repo ${'d'.repeat(50_000)}`;
const GHOST = `ghost\u001b[2J\u0000${'g'.repeat(50_000)}`;

describe('labels a model makes huge', () => {
  it('are cut before they reach the child events, the results, the tracker and the errors', async () => {
    const o = await startOffline(
      {
        main: scriptedSteps(
          { toolCalls: [{ name: 'task', args: { agent_name: 'alpha', prompt: 'one', description: LONG_LABEL } }] },
          {
            toolCalls: [
              {
                name: 'multitask',
                args: { tasks: [{ index: 1, agent_name: 'alpha', prompt: 'two', description: LONG_LABEL }, { index: 2, agent_name: GHOST, prompt: 'three', description: 'ghost' }] },
              },
            ],
          },
        ),
        alpha: (t) => ({ text: `did ${t.prompt}` }),
      },
      [testAgent('alpha')],
      { multitaskMaxTasks: 1 },
    );
    const events = await collect(o.engine.stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });

    const shownLabel = `scan the repo ${'d'.repeat(MAX_TASK_DESCRIPTION_CHARS - 15)}…`;
    const children = wraps(events);
    expect(children.length).toBeGreaterThan(6);
    for (const w of children) {
      expect(w.taskDescription.length).toBeLessThanOrEqual(MAX_TASK_DESCRIPTION_CHARS);
      expect(w.taskAgentName.length).toBeLessThanOrEqual(MAX_AGENT_NAME_CHARS);
    }
    expect(children.filter((w) => w.taskAgentName === 'alpha').every((w) => w.taskDescription === shownLabel)).toBe(true);
    expect(o.engine.tasks.list().map((t) => t.description)).toEqual([shownLabel, shownLabel]);

    const [single, multi] = own(events, 'ToolCallEnd');
    expect(single!.text).toContain(`<description>${shownLabel}</description><agent_name>alpha</agent_name>`);
    expect(single!.text.length).toBeLessThan(1_000);
    // the unknown name: its start, cut at an agent name's length, in the entry and in the error
    const ghost = `ghost\u001b[2J\u0000${'g'.repeat(MAX_AGENT_NAME_CHARS - 11)}…`;
    expect(multi!.text).toContain(`<agent_name>${ghost}</agent_name>`);
    expect(multi!.text).toContain(`ERROR: unknown agent "${ghost}"`);
    expect(multi!.text.length).toBeLessThan(2_000);
  });

  it('a forged task_id of 100,000 characters is refused, shown cut in the result, the error and the events', async () => {
    const forged = `task_${'x'.repeat(100_000)}`;
    const o = await startOffline(
      { main: scriptedSteps({ toolCalls: [{ name: 'task', args: { agent_name: 'alpha', prompt: 'more', description: 'resume', task_id: forged } }] }) },
      [testAgent('alpha')],
    );
    const events = await collect(o.engine.stream('go'));
    const end = own(events, 'ToolCallEnd')[0]!;
    const shown = `task_${'x'.repeat(MAX_QUOTED_NAME_CHARS - 6)}…`;
    expect(end.text).toContain(`<task_id>${shown}</task_id><result_status>failure</result_status>`);
    expect(end.text).toContain(`ERROR: unknown task id "task_${'x'.repeat(34)} [... 99927 characters cut ...] ${'x'.repeat(39)}"`);
    expect(end.text.length).toBeLessThan(1_000);
    const refused = wraps(events);
    expect(refused.map((w) => w.event.type)).toEqual(['RunStart', 'RunEnd']);
    for (const w of refused) expect(JSON.stringify(w).length).toBeLessThan(2_000);
  });
});
