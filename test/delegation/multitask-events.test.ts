import { lastValueFrom } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, TaskWrapEvent } from '../../src/events/agent-event.js';
import { terminalRunEnd } from '../../src/events/operators/terminal-run-end.js';
import { testAgent } from '../support/agent-turns.js';
import { own, record, wraps } from '../support/collect-events.js';
import { multitaskArgs } from '../support/delegation-script.js';
import { offlineEnginePerTest, type OfflineEngine } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

/**
 * Three children streaming at different paces (fake time): task 3 is fastest and task 1
 * slowest, so they finish in the reverse of index order.
 */
const PACE: Readonly<Record<string, number>> = { one: 30, two: 20, three: 10 };

let offline: OfflineEngine | undefined;
const startOffline = offlineEnginePerTest();

async function runMultitask(): Promise<AgentEvent[]> {
  offline = await startOffline(
    {
      main: scriptedSteps({
        toolCalls: [{ name: 'multitask', args: multitaskArgs([[1, 'alpha', 'one', 'first'], [2, 'alpha', 'two', 'second'], [3, 'beta', 'three', 'third']]) }],
      }),
      alpha: (turn) => ({ text: `${turn.prompt}-aaaabbbbcccc`.slice(0, 12), chunkSize: 4, delayMs: 5, chunkDelayMs: PACE[turn.prompt] }),
      beta: (turn) => ({ text: `${turn.prompt}-aaaabbbbcccc`.slice(0, 12), chunkSize: 4, delayMs: 5, chunkDelayMs: PACE[turn.prompt] }),
    },
    [testAgent('alpha'), testAgent('beta')],
    { multitaskMaxTasks: 0 },
  );
  vi.useFakeTimers();
  const run = record(offline.engine.stream('fan out'));
  await vi.advanceTimersByTimeAsync(1_000);
  expect(run.completed).toBe(true);
  return run.events;
}

describe('multitask, streamed', () => {
  it('interleaves the tasks while keeping each task in its own order', async () => {
    const events = await runMultitask();
    const wrapped = wraps(events);
    const ids = [...new Set(wrapped.map((w) => w.taskId))];
    expect(ids).toHaveLength(3);
    // Interleaved: the task ids do not come in three contiguous blocks.
    const switches = wrapped.filter((w, i) => i > 0 && w.taskId !== wrapped[i - 1]!.taskId).length;
    expect(switches).toBeGreaterThan(2);
    for (const id of ids) {
      const mine = wrapped.filter((w) => w.taskId === id);
      expect(mine.map((w) => w.event.type)).toEqual([
        'RunStart', 'ContextSize', 'ReasonStart', 'ReasonDelta', 'ReasonDelta', 'ReasonDelta', 'ReasonEnd', 'RunEnd',
      ]);
      expect(new Set(mine.map((w) => w.runId)).size).toBe(1);
    }
    // The fastest (index 3) ends first, the slowest (index 1) last.
    expect(wrapped.filter((w) => w.event.type === 'RunEnd').map((w) => w.taskIndex)).toEqual([3, 2, 1]);
  });

  it('carries the multitask index, agent and description in each TaskWrap', async () => {
    const events = await runMultitask();
    const parentRunId = events[0]!.runId;
    const byIndex = (i: number): TaskWrapEvent => wraps(events).find((w) => w.taskIndex === i)!;
    expect(byIndex(1)).toMatchObject({ taskAgentName: 'alpha', agentName: 'alpha', taskDescription: 'first', multitask: true, parentRunId });
    expect(byIndex(2)).toMatchObject({ taskAgentName: 'alpha', taskDescription: 'second', multitask: true, parentRunId });
    expect(byIndex(3)).toMatchObject({ taskAgentName: 'beta', agentName: 'beta', taskDescription: 'third', multitask: true, parentRunId });
    expect(new Set(wraps(events).map((w) => w.taskIndex))).toEqual(new Set([1, 2, 3]));
  });

  it('keeps every wrap inside the multitask call, with exactly one unwrapped RunEnd, last', async () => {
    const events = await runMultitask();
    const start = events.findIndex((e) => e.type === 'ToolCallStart' && e.toolName === 'multitask');
    const end = events.findIndex((e) => e.type === 'ToolCallEnd' && e.toolName === 'multitask');
    const firstWrap = events.findIndex((e) => e.type === 'TaskWrap');
    const lastWrap = events.findLastIndex((e) => e.type === 'TaskWrap');
    expect(start).toBeLessThan(firstWrap);
    expect(lastWrap).toBeLessThan(end);
    expect(events.slice(start + 1, end).every((e) => e.type === 'TaskWrap')).toBe(true);
    expect(own(events, 'RunEnd')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', agentName: 'main', abnormal: false });
  });

  it('returns the results in index order although the tasks finished in reverse', async () => {
    const events = await runMultitask();
    const text = own(events, 'ToolCallEnd')[0]!.text;
    const lines = text.split('\n');
    expect(lines[0]).toBe('<multitask_results>');
    expect(lines.at(-1)).toBe('</multitask_results>');
    const rows = lines.slice(1, -1);
    expect(rows.map((l) => /<index>(\d)<\/index>/.exec(l)?.[1])).toEqual(['1', '2', '3']);
    expect(rows[0]).toContain('<description>first</description><agent_name>alpha</agent_name>');
    expect(rows[0]).toContain('<result_status>success</result_status><result_content><![CDATA[one-aaaabbbb]]>');
    expect(rows[2]).toContain('<agent_name>beta</agent_name>');
    expect(rows[2]).toContain('<![CDATA[three-aaaabb]]>');
    // Each line names the task id its wrapped events carried.
    for (const w of wraps(events).filter((x) => x.event.type === 'RunStart')) {
      expect(rows[w.taskIndex - 1]).toContain(`<task_id>${w.taskId}</task_id>`);
    }
  });

  it('terminalRunEnd completes with the parent RunEnd even though three child RunEnds came first', async () => {
    await runMultitask(); // builds `offline`
    const end$ = lastValueFrom(offline!.engine.stream('fan out').pipe(terminalRunEnd()));
    await vi.advanceTimersByTimeAsync(1_000);
    const end = await end$;
    expect(end).toMatchObject({ agentName: 'main', abnormal: false });
    expect(end.metrics.tasks).toBe(3);
  });
});
