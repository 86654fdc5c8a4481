import { describe, expect, it } from 'vitest';
import { createTreeState, plainLine, reduceTree, renderTree, type TaskTreeState } from '../../src/adapters/index.js';
import { oneLine, stripControls } from '../../src/adapters/terminal-tree/text-line.js';
import type { AgentEvent } from '../../src/events/index.js';
import { call, FixtureRun } from './fixtures.js';

/** Every bidi control: embeddings, overrides, isolates, marks and the Arabic letter mark. */
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const RAW_BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

function fold(events: readonly AgentEvent[]): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, i * 10), createTreeState());
}

describe('bidi controls from the model on the terminal', () => {
  it('are marked as the approval question marks them, every one of them', () => {
    for (const control of BIDI) {
      const mark = `<U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
      expect(stripControls(`a${control}b\n`)).toBe(`a${mark}b\n`);
      expect(oneLine(`a${control}b`)).toBe(`a${mark}b`);
    }
  });

  it('are marked in a tool error and the final answer of plain lines', () => {
    const main = new FixtureRun('m', 'main');
    const failed = plainLine(main.toolEnd(1, call('c1', 'read', { path: 'a' }), '', 'no file \u202Etxt.exe'))!;
    expect(failed).toBe('[main] tool read failed: no file <U+202E>txt.exe');
    const end = plainLine(main.end('Run \u2067evil\u2069 now'))!;
    expect(end).toMatch(/final answer:\nRun <U\+2067>evil<U\+2069> now$/);
    expect(failed + end).not.toMatch(RAW_BIDI);
  });

  it('are marked in tree lines: a task description, a streamed tail, an error', () => {
    const main = new FixtureRun('m', 'main');
    const task = main.task({ taskId: 't', agentName: 'explore', description: 'Look \u202Eereh' });
    const running = [main.start('go'), task.start('x'), ...task.reason(1, 'said \u200Fthis')];
    const streaming = renderTree(fold(running), { now: 10_000, width: 200 });
    expect(streaming).toContain('Look <U+202E>ereh');
    expect(streaming).toContain('said <U+200F>this');
    const ended = renderTree(fold([...running, task.end('', { abnormal: true, error: 'bad \u202Dthing' })]), { now: 10_000, width: 200 });
    expect(ended).toContain('bad <U+202D>thing');
    expect(streaming + ended).not.toMatch(RAW_BIDI);
  });
});
