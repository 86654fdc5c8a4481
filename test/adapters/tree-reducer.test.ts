import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { createTreeState, elapsedMs, reduceTree, settleTree, type TaskTreeState } from '../../src/adapters/index.js';
import { call, FixtureRun, multitaskRun, nestedRun } from './fixtures.js';

/** Folds events at 10 ms apart, starting at `from`. */
function fold(events: readonly AgentEvent[], state: TaskTreeState = createTreeState(), from = 0): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, from + i * 10), state);
}

describe('reduceTree', () => {
  it('builds the main run and one node per multitask child, keyed by task, with outcomes', () => {
    const { events } = multitaskRun();
    const state = fold(events);
    expect(state.root).toMatchObject({ key: 'run-main', agentName: 'main', description: 'Survey this project', status: 'done', tokens: 1200, durationMs: 1500 });
    expect(state.root?.children.map((c) => [c.key, c.agentName, c.taskIndex, c.description, c.status, c.tokens])).toEqual([
      ['run-main/task-1', 'explore', 1, 'Find tests', 'done', 300],
      ['run-main/task-2', 'explore', 2, 'Find TODOs', 'done', 200],
      ['run-main/task-3', 'bash', 3, 'Recent commits', 'failed', 50],
    ]);
    expect(state.root?.children[2]?.error).toBe('git failed: not a git repository');
    expect(state.result).toEqual({ text: 'Tests are in test/, one TODO, no git.', abnormal: false });
  });

  it('tracks the current tool and streamed text while children run', () => {
    const { events } = multitaskRun();
    const toolStarted = events.findIndex((e) => e.type === 'TaskWrap' && e.event.type === 'ToolCallStart' && e.taskId === 'task-3');
    const mid = fold(events.slice(0, toolStarted + 1));
    const bash = mid.root?.children[2];
    expect(bash).toMatchObject({ status: 'running', currentTool: 'bash git log -3' });
    expect(mid.root?.currentTool).toBe('multitask ×3');
    const afterTool = fold(events.slice(toolStarted + 1, toolStarted + 4), mid, 1000);
    expect(afterTool.root?.children[2]?.currentTool).toBeUndefined();
    const deltas = events.findIndex((e) => e.type === 'TaskWrap' && e.event.type === 'ReasonEnd' && e.taskId === 'task-1' && e.event.step === 2);
    expect(fold(events.slice(0, deltas)).root?.children[0]?.tail).toBe('Tests live in test/.');
  });

  it('nests a grandchild under its parent task, by the path of frames', () => {
    const { events } = nestedRun();
    const halfway = events.findIndex((e) => e.type === 'TaskWrap' && e.event.type === 'TaskWrap' && e.event.event.type === 'ToolCallStart');
    const mid = fold(events.slice(0, halfway + 1));
    const general = mid.root?.children[0];
    expect(general).toMatchObject({ key: 'run-main/task-g', agentName: 'general', status: 'running', currentTool: 'task explore' });
    expect(general?.children[0]).toMatchObject({
      key: 'run-task-g/task-e', agentName: 'explore', description: 'Locate parser files', status: 'running', currentTool: 'glob src/**/parse*.ts',
    });
    const done = fold(events);
    expect(done.root?.children).toHaveLength(1);
    expect(done.root?.children[0]?.children.map((c) => [c.status, c.tokens])).toEqual([['done', 150]]);
  });

  it('fails a run that ends abnormally, and the tasks its end leaves running', () => {
    const main = new FixtureRun('run-main', 'main');
    const child = main.task({ taskId: 't1', agentName: 'general', description: 'Long job' });
    const state = fold([main.start('go'), child.start('work'), main.end('', { abnormal: true, error: 'step limit reached' })]);
    expect(state.root).toMatchObject({ status: 'failed', error: 'step limit reached' });
    expect(state.root?.children[0]).toMatchObject({ status: 'failed', error: 'ended without a result', endedAt: 20 });
    expect(state.result).toEqual({ text: '', abnormal: true, error: 'step limit reached' });
  });

  it('keeps one line, the last 60 characters, escape codes marked, of the streamed text', () => {
    const main = new FixtureRun('r', 'main');
    const long = `first line\n\n\u001b[31m${'x'.repeat(70)}\u001b[0m\nlast words`;
    const state = fold([main.start('go'), ...main.reason(1, long).slice(0, -1)]);
    const tail = state.root?.tail ?? '';
    expect(tail).toHaveLength(60);
    expect(tail.startsWith('…x')).toBe(true); // the cut start is shown
    expect(tail.endsWith('x<U+001B>[0m last words')).toBe(true); // shown as there, not dropped unseen
    expect(tail).not.toMatch(/[\u0000-\u001f]/);
  });

  it("marks escape codes in a task's description, its error and the prompt, instead of dropping them unseen", () => {
    const main = new FixtureRun('r', 'main');
    const child = main.task({ taskId: 't', agentName: 'explore', description: 'Find\u001b[8m hidden\u001b[0m\ntests' });
    const state = fold([
      main.start('go\u001b]0;title\u0007'), child.start('x'),
      child.end('', { abnormal: true, error: 'boom\u001b[2J\u009b1m\r\nmore' }),
    ]);
    expect(state.root?.description).toBe('go<U+001B>]0;title<U+0007>');
    expect(state.root?.children[0]).toMatchObject({
      description: 'Find<U+001B>[8m hidden<U+001B>[0m tests', status: 'failed', error: 'boom<U+001B>[2J<U+009B>1m more',
    });
  });

  it('starts a cut tail on a whole character: no half emoji or flag, no lone accent or joiner', () => {
    const main = new FixtureRun('r', 'main');
    // 59 code units back from the end (60 with the …) falls inside the emoji, on the accent, or between a flag's halves
    const cases = [
      ['👩‍💻', 'x'.repeat(58)], ['👩‍💻', 'x'.repeat(57)], ['👩‍💻', 'x'.repeat(56)], ['e\u0301', 'x'.repeat(58)],
      ['🇫🇷🇩🇪', 'x'.repeat(57)], ['🇫🇷🇩🇪🇮🇹', 'x'.repeat(55)],
    ] as const;
    for (const [cut, rest] of cases) {
      const state = fold([main.start('go'), ...main.reason(1, `abc ${cut}${rest}`).slice(0, -1)]);
      const tail = state.root?.tail ?? '';
      expect(tail.length).toBeLessThanOrEqual(60);
      expect(tail.endsWith(rest)).toBe(true);
      expect(tail.slice(1), JSON.stringify(tail)).toMatch(/^(?![\udc00-\udfff\p{M}\u200d])/u);
      // every flag whole: an even number of regional indicators
      expect((tail.match(/\p{Regional_Indicator}/gu) ?? []).length % 2).toBe(0);
    }
  });

  it('shows a pending approval until it is decided', () => {
    const main = new FixtureRun('r', 'main');
    const bash = call('c', 'bash', { command: 'make' });
    const pending = fold([main.start('go'), main.toolStart(1, bash), main.approvalPending(bash, 'bash asks')]);
    expect(pending.root?.awaitingApproval).toBe('bash');
    expect(fold([main.approvalDecided(bash, 'approve')], pending).root?.awaitingApproval).toBeUndefined();
  });

  it('restarts a resumed task under the same key', () => {
    const main = new FixtureRun('run-main', 'main');
    const first = main.task({ taskId: 't1', agentName: 'explore', description: 'Look' }, 'run-a');
    const again = main.task({ taskId: 't1', agentName: 'explore', description: 'Look' }, 'run-b');
    const state = fold([main.start('go'), first.start('look'), first.end('found', { tokens: 10 }), again.start('look more')], undefined, 100);
    expect(state.root?.children).toHaveLength(1);
    expect(state.root?.children[0]).toMatchObject({ runId: 'run-b', status: 'running', startedAt: 130, tail: '' });
    expect(state.root?.children[0]?.tokens).toBeUndefined();
  });

  it('makes a root for a stream joined after its RunStart', () => {
    const child = new FixtureRun('run-main', 'main').task({ taskId: 't', agentName: 'plan', description: 'Plan' });
    const state = reduceTree(createTreeState(), child.start('plan it'), 5);
    expect(state.root).toMatchObject({ key: 'run-main', runId: 'run-main', status: 'running' });
    expect(state.root?.children[0]).toMatchObject({ agentName: 'plan', startedAt: 5 });
  });

  it('never changes the state it is given', () => {
    const { events } = multitaskRun();
    const before = fold(events.slice(0, 20));
    const copy = structuredClone(before);
    fold(events.slice(20), before);
    expect(before).toEqual(copy);
  });
});

describe('settleTree and elapsedMs', () => {
  it('marks what still runs as failed with the reason, leaving finished runs alone', () => {
    const { events } = multitaskRun();
    const aEnd = events.findIndex((e) => e.type === 'TaskWrap' && e.event.type === 'RunEnd' && e.taskId === 'task-1');
    const state = settleTree(fold(events.slice(0, aEnd + 1)), 5000, 'cancelled');
    expect(state.root).toMatchObject({ status: 'failed', error: 'cancelled', endedAt: 5000 });
    expect(state.root?.children.map((c) => c.status)).toEqual(['done', 'failed', 'failed']);
    expect(state.root?.children[1]?.currentTool).toBeUndefined();
    expect(elapsedMs(state.root!, 99_999)).toBe(5000);
    expect(elapsedMs(state.root!.children[0]!, 99_999)).toBe(1500);
  });
});
