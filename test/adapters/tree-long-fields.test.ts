/**
 * The task tree keeps a task's description, its error and a tool's name whole (the web page
 * shows every character), and any of them may be megabytes: a pasted prompt, a server's
 * error page, a name the model made up. The terminal tree shows one line per task, cut to
 * the width: only the start of each such text that a line can show goes into its frame.
 */
import stringWidth from 'string-width';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTreeState, reduceTree, renderTree, type TaskTreeState } from '../../src/adapters/terminal-tree/index.js';
import { truncate } from '../../src/adapters/terminal-tree/text-line.js';
import type { AgentEvent } from '../../src/events/index.js';
import { call as toolCall, FixtureRun } from './fixtures.js';

/** A quarter of a megabyte: far past what any line shows, cheap enough to build three times. */
const BIG = 256 * 1024;

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs `draw`, recording the longest string any `Array.prototype.join` made meanwhile (a line of the frame is one). */
function longestJoin(draw: () => string): { frame: string; longest: number } {
  let longest = 0;
  const join = Array.prototype.join;
  vi.spyOn(Array.prototype, 'join').mockImplementation(function (this: string[], separator?: string) {
    const joined = join.call(this, separator);
    longest = Math.max(longest, joined.length);
    return joined;
  });
  try {
    return { frame: draw(), longest };
  } finally {
    vi.restoreAllMocks();
  }
}

/** A main run with a megabyte prompt and three tasks: one failed on a megabyte error, one cancelled, one awaiting approval of a tool with a megabyte name. */
function hugeTree(): { state: TaskTreeState; description: string; error: string } {
  const description = `Review ${'the whole module '.repeat(BIG / 16)}`;
  const error = `upstream answered 502: <html>${'<p>bad gateway</p>'.repeat(BIG / 18)}</html>`;
  const main = new FixtureRun('r0', 'main');
  const failed = main.task({ taskId: 't1', agentName: 'general', description });
  const stopped = main.task({ taskId: 't2', agentName: 'general', description, taskIndex: 2 });
  const asking = main.task({ taskId: 't3', agentName: 'general', description, taskIndex: 3, multitask: true });
  const call = toolCall('c1', `tool_${'x'.repeat(BIG)}`, {});
  const events: AgentEvent[] = [
    main.start(description),
    failed.start('go'), failed.end('', { abnormal: true, error }),
    stopped.start('go'), stopped.wrap({ type: 'RunCancelled', runId: stopped.runId, agentName: 'general', reason: error }),
    asking.start('go'), asking.approvalPending(call, 'why not'),
  ];
  const state = events.reduce((s, e) => reduceTree(s, e, 0), createTreeState());
  return { state, description, error };
}

describe('the terminal tree, descriptions and errors of a quarter of a megabyte', () => {
  it('the reducer keeps them whole (the web page shows them all)', () => {
    const { state, description, error } = hugeTree();
    const [failed, stopped] = state.root!.children;
    expect(state.root!.description).toBe(description);
    expect(failed).toMatchObject({ status: 'failed', description, error });
    expect(stopped).toMatchObject({ status: 'cancelled' });
    expect(stopped!.error!.length).toBeGreaterThan(BIG);
  });

  for (const color of [false, true]) {
    it(`a frame ${color ? 'in colour ' : ''}holds one line per task cut to the width, built of their starts only`, () => {
      const { state } = hugeTree();
      const { frame, longest } = longestJoin(() => renderTree(state, { now: 0, width: 100, color }));
      // each line was at most the measured start of each long part: a few thousand characters, never a megabyte
      expect(longest).toBeLessThan(10_000);
      const lines = frame.split('\n');
      expect(lines).toHaveLength(4);
      const plain = lines.map((line) => line.replace(/\u001b\[[0-9;]*m/g, ''));
      for (const line of plain) expect(stringWidth(line)).toBe(100);
      expect(plain[0]).toMatch(/^⠋ main Review the whole module .*…$/);
      expect(plain[1]).toMatch(/^├─ ✖ general Review the whole module .*…$/);
      expect(plain[3]).toMatch(/^└─ ⠋ general#3 Review the whole module .*…$/);
    });
  }

  it('a short description and error are shown whole', () => {
    const main = new FixtureRun('r0', 'main');
    const child = main.task({ taskId: 't1', agentName: 'general', description: 'Fix it' });
    const events = [main.start('Go'), child.start('go'), child.end('', { abnormal: true, error: 'disk full' })];
    const state = events.reduce((s, e) => reduceTree(s, e, 0), createTreeState());
    expect(renderTree(state, { now: 0, width: 100 }).split('\n')[1]).toBe('└─ ✖ general Fix it (1.5s, 100 tok) error: disk full');
  });
});

describe('truncate, a long plain line', () => {
  it('checks only the start it measures for plain ASCII, not the whole text, and cuts it as before', () => {
    let longest = 0;
    const test = RegExp.prototype.test;
    vi.spyOn(RegExp.prototype, 'test').mockImplementation(function (this: RegExp, input: string) {
      longest = Math.max(longest, input.length);
      return test.call(this, input);
    });
    expect(truncate('a'.repeat(BIG), 10)).toBe(`${'a'.repeat(9)}…`);
    expect(truncate(`${'a'.repeat(BIG)}é`, 10)).toBe(`${'a'.repeat(9)}…`);
    expect(truncate('abc', 10)).toBe('abc');
    expect(longest).toBeLessThan(1_000);
  });
});
