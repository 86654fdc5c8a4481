import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { createTreeState, formatDuration, reduceTree, renderTree, type TaskTreeState } from '../../src/adapters/index.js';
import stringWidth from 'string-width';
import { FixtureRun, multitaskRun } from './fixtures.js';

const ANSI = /\u001b\[[0-9;]*m/g;

function fold(events: readonly AgentEvent[]): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, i * 10), createTreeState());
}

describe('renderTree', () => {
  it('draws the finished multitask tree: branches, icons, agents, descriptions, time, tokens, errors', () => {
    const text = renderTree(fold(multitaskRun().events), { now: 10_000, width: 120 });
    expect(text).toBe(
      [
        '✔ main Survey this project (1.5s, 1,200 tok) › Tests are in test/, one TODO, no git.',
        '├─ ✔ explore#1 Find tests (1.5s, 300 tok) › Tests live in test/.',
        '├─ ✔ explore#2 Find TODOs (1.5s, 200 tok) › One TODO in src/a.ts.',
        '└─ ✖ bash#3 Recent commits (1.5s, 50 tok) error: git failed: not a git repository',
      ].join('\n'),
    );
  });

  it('shows a spinner, the elapsed time and the current tool while running', () => {
    const { events } = multitaskRun();
    const at = events.findIndex((e) => e.type === 'TaskWrap' && e.event.type === 'ToolCallStart' && e.taskId === 'task-3');
    const state = fold(events.slice(0, at + 1));
    const lines = renderTree(state, { now: 2_500, width: 120 }).split('\n');
    expect(lines[0]).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] main Survey this project \(2\.5s\) ▸ multitask ×3$/);
    expect(lines[3]).toMatch(/^└─ [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] bash#3 Recent commits \(\d\.\ds\) ▸ bash git log -3$/);
  });

  it('draws nested tasks with continuation lines', () => {
    const main = new FixtureRun('m', 'main');
    const a = main.task({ taskId: 'a', agentName: 'general', description: 'A' });
    const a1 = a.task({ taskId: 'a1', agentName: 'explore', description: 'A1' });
    const b = main.task({ taskId: 'b', agentName: 'plan', description: 'B' });
    const state = fold([main.start('go'), a.start('a'), a1.start('a1'), b.start('b')]);
    const branches = renderTree(state, { now: 0 }).split('\n').map((l) => l.replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏].*$/, ''));
    expect(branches).toEqual(['', '├─ ', '│  └─ ', '└─ ']);
  });

  it('cuts every line to the width, counting wide characters as two columns', () => {
    const main = new FixtureRun('m', 'main');
    const child = main.task({ taskId: 't', agentName: 'explore', description: '查找所有的测试文件并总结它们的结构和覆盖范围' });
    const state = fold([main.start('Survey this project and report on everything you find'), child.start('x')]);
    for (const width of [20, 33, 50]) {
      const lines = renderTree(state, { now: 0, width }).split('\n');
      for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(width);
      expect(lines.every((line) => line.endsWith('…'))).toBe(true);
    }
  });

  it('counts emoji as two columns, even joined sequences, and never cuts a character in half', () => {
    const main = new FixtureRun('m', 'main');
    // ✅ was counted as one column and 👩‍💻 as four: lines overflowed, or were cut short
    const state = fold([main.start('✅ 👩‍💻 🇫🇷 👍🏽 e\u0301 ok')]);
    const whole = renderTree(state, { now: 0, width: 200 });
    expect(whole).toBe('⠋ main ✅ 👩‍💻 🇫🇷 👍🏽 e\u0301 ok (0.0s)');
    expect(stringWidth(whole)).toBe(30);
    const at = (width: number): string => renderTree(state, { now: 0, width });
    expect([9, 10, 12, 13, 21].map(at)).toEqual([
      '⠋ main …', // the ✅ takes two columns: with the … it would need ten
      '⠋ main ✅…',
      '⠋ main ✅ …',
      '⠋ main ✅ 👩‍💻…', // the whole sequence, as two columns
      '⠋ main ✅ 👩‍💻 🇫🇷 👍🏽 e\u0301…', // the accent stays on its letter
    ]);
    for (let width = 1; width < 30; width++) {
      const line = at(width);
      expect(stringWidth(line)).toBeLessThanOrEqual(width);
      expect(line.endsWith('…')).toBe(true);
      expect(whole.startsWith(line.slice(0, -1))).toBe(true);
    }
    expect(at(30)).toBe(whole);
  });

  it('colours only when asked, and colour changes nothing else', () => {
    const state = fold(multitaskRun().events);
    const plain = renderTree(state, { now: 0, width: 60 });
    const coloured = renderTree(state, { now: 0, width: 60, color: true });
    expect(plain).not.toMatch(ANSI);
    expect(coloured).toMatch(ANSI);
    expect(coloured.replace(ANSI, '')).toBe(plain);
  });

  it('draws nothing before the first event', () => {
    expect(renderTree(createTreeState(), { now: 0 })).toBe('');
  });
});

describe('formatDuration', () => {
  it('uses tenths of seconds under a minute, then minutes and seconds', () => {
    expect([formatDuration(0), formatDuration(1_549), formatDuration(59_999), formatDuration(125_000)]).toEqual(['0.0s', '1.5s', '59.9s', '2m05s']);
  });
});
