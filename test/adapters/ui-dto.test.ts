import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { toUiItem, toUiItems, type UiItem } from '../../src/adapters/index.js';
import { call, FixtureRun, multitaskRun, nestedRun } from './fixtures.js';

function items(events: readonly AgentEvent[]): UiItem[] {
  return events.map(toUiItem).filter((item): item is UiItem => item !== undefined);
}

describe('toUiItems', () => {
  it('maps events to items in order and drops the ones a UI does not need (marbles)', () => {
    const main = new FixtureRun('run-1', 'main');
    const [reasonStart, delta, reasonEnd] = main.reason(1, 'Hi');
    const values = { s: main.start('hello'), r: reasonStart, d: delta, e: reasonEnd, c: main.contextSize(1, 5), z: main.end('Hi') } as Record<string, AgentEvent>;
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold('s-c-r-d-e-z|', values);
      expectObservable(source.pipe(toUiItems())).toBe('s-----d---z|', {
        s: { kind: 'run-start', runId: 'run-1', agentName: 'main', depth: 0, sessionId: 'session-run-1', prompt: 'hello' },
        d: { kind: 'text-delta', runId: 'run-1', agentName: 'main', depth: 0, step: 1, text: 'Hi' },
        z: {
          kind: 'result', runId: 'run-1', agentName: 'main', depth: 0, text: 'Hi', abnormal: false, steps: 1,
          metrics: { promptTokens: 80, completionTokens: 20, totalTokens: 100, durationMs: 1500, tasks: 0 },
        },
      });
    });
  });

  it('passes an error through', () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold<AgentEvent>('--#', undefined, new Error('boom')).pipe(toUiItems())).toBe('--#', undefined, new Error('boom'));
    });
  });
});

describe('toUiItem', () => {
  it('groups interleaved multitask children by parentRunId/taskId, even when they share an agent', () => {
    const { events } = multitaskRun();
    const childItems = items(events).filter((item) => item.depth > 0);
    const groups = new Map<string, UiItem[]>();
    for (const item of childItems) groups.set(item.groupKey ?? '?', [...(groups.get(item.groupKey ?? '?') ?? []), item]);

    expect([...groups.keys()]).toEqual(['run-main/task-1', 'run-main/task-2', 'run-main/task-3']);
    const explore = [...groups.values()].filter((g) => g[0]?.taskAgentName === 'explore');
    expect(explore).toHaveLength(2);
    for (const [key, group] of groups) {
      expect(group[0]?.kind).toBe('task-start');
      expect(group[group.length - 1]?.kind).toBe('task-end');
      expect(new Set(group.map((i) => i.runId))).toEqual(new Set([`run-${key.split('/')[1]}`]));
      expect(group.every((i) => i.parentRunId === 'run-main' && i.multitask === true && i.depth === 1)).toBe(true);
    }
    expect(groups.get('run-main/task-2')?.map((i) => i.kind)).toEqual(['task-start', 'tool-start', 'tool-end', 'text-delta', 'text-delta', 'text-delta', 'task-end']);
    expect(groups.get('run-main/task-2')?.[0]).toMatchObject({ taskIndex: 2, taskDescription: 'Find TODOs', prompt: 'Find TODO comments' });
    expect(groups.get('run-main/task-3')?.at(-1)).toMatchObject({
      kind: 'task-end', abnormal: true, error: 'git failed: not a git repository', taskAgentName: 'bash', taskIndex: 3,
    });
    // the interleaving really happened: the groups' items are not contiguous in the stream
    const keys = childItems.map((i) => i.groupKey);
    expect(keys.slice(0, 3)).toEqual(['run-main/task-1', 'run-main/task-2', 'run-main/task-3']);
  });

  it('turns only the unwrapped RunEnd into a result', () => {
    const all = items(multitaskRun().events);
    const results = all.filter((i) => i.kind === 'result');
    expect(results).toHaveLength(1);
    expect(all.at(-1)).toMatchObject({ kind: 'result', runId: 'run-main', depth: 0, text: 'Tests are in test/, one TODO, no git.' });
    expect(all.filter((i) => i.kind === 'task-end')).toHaveLength(3);
    expect(all.filter((i) => i.kind === 'run-start')).toHaveLength(1);
  });

  it('describes a grandchild by its innermost frame, at depth 2', () => {
    const { events, child, grandchild } = nestedRun();
    const all = items(events);
    const deep = all.filter((i) => i.depth === 2);
    expect(deep.length).toBeGreaterThan(3);
    for (const item of deep) {
      expect(item).toMatchObject({
        runId: grandchild.runId, agentName: 'explore', parentRunId: child.runId, taskId: 'task-e',
        taskAgentName: 'explore', taskDescription: 'Locate parser files', taskIndex: 1, multitask: false,
        groupKey: `${child.runId}/task-e`,
      });
    }
    expect(deep.map((i) => i.kind)).toEqual(['task-start', 'tool-start', 'tool-end', 'text-delta', 'text-delta', 'text-delta', 'task-end']);
    const middle = all.filter((i) => i.depth === 1);
    expect(new Set(middle.map((i) => i.groupKey))).toEqual(new Set(['run-main/task-g']));
    expect(middle.at(-1)).toMatchObject({ kind: 'task-end', text: 'The parser looks fine.', metrics: { totalTokens: 400, tasks: 1 } });
  });

  it('leaves task fields off the streamed run’s own items and survives JSON', () => {
    const all = items(nestedRun().events);
    const own = all.filter((i) => i.depth === 0);
    for (const item of own) {
      expect(Object.keys(item)).not.toContain('groupKey');
      expect(Object.keys(item)).not.toContain('taskId');
    }
    expect(JSON.parse(JSON.stringify(all))).toEqual(all);
  });

  it('skips bookkeeping and step boundaries, wrapped or not', () => {
    const main = new FixtureRun('run-1', 'main');
    const child = main.task({ taskId: 't', agentName: 'plan', description: 'Plan' });
    const c = call('x', 'read', { path: 'a' });
    for (const run of [main, child]) {
      const skipped = [run.contextSize(3, 40), ...run.reason(1, ''), run.actionStart(1, [c]), run.actionEnd(1)];
      expect(skipped.map(toUiItem)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    }
  });

  it('separates thinking from text and maps approvals, plans and tool errors', () => {
    const main = new FixtureRun('run-1', 'main');
    const bash = call('c1', 'bash', { command: 'rm -rf build' });
    const list = items([
      ...main.reason(1, 'ok', { thinking: 'hmm' }),
      main.toolStart(1, bash),
      main.approvalPending(bash, 'bash asks for approval'),
      main.approvalDecided(bash, 'reject', 'not now'),
      main.toolEnd(1, bash, 'Rejected: not now', 'rejected by user'),
      main.plan([{ id: '1', content: 'Read', status: 'in_progress' }]),
    ]);
    expect(list.map((i) => i.kind)).toEqual(['thinking-delta', 'text-delta', 'tool-start', 'approval-pending', 'approval-decided', 'tool-end', 'plan']);
    expect(list[0]).toMatchObject({ text: 'hmm', step: 1 });
    expect(list[3]).toMatchObject({ callId: 'c1', toolName: 'bash', reason: 'bash asks for approval', args: { command: 'rm -rf build' } });
    expect(list[4]).toMatchObject({ decision: 'reject', comment: 'not now' });
    expect(list[5]).toMatchObject({ error: 'rejected by user', text: 'Rejected: not now', durationMs: 12 });
    expect(list[6]).toMatchObject({ todos: [{ id: '1', content: 'Read', status: 'in_progress' }] });
  });
});
