/**
 * The page's list of a task's tool calls shows a call's result, and its approval's reason and
 * the decider's comment, as it shows an error: an escape sequence or a bidi override in them
 * (a tool's, a policy's or a human's words) is marked (`<U+001B>`, `<U+202E>`), never left to
 * turn around what the reader sees, their line breaks kept; a result is cut as an error is,
 * never inside a character. In an in-memory document (`fake-dom.ts`), from the tree the page folds.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTreeState, reduceTree, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import { RESULT_CHARS } from '../../../src/adapters/task-tree/tree-state.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { ToolCallsView } from '../../../src/web/page/tool-calls-view.js';
import { call, FixtureRun } from '../../adapters/fixtures.js';
import { fakeDocument, type FakeElement } from './fake-dom.js';

const fold = (events: readonly AgentEvent[]): TaskTreeState => events.reduce((s, e, i) => reduceTree(s, e, i), createTreeState());

/** The text of the part `className` of each drawn call. */
function drawn(state: TaskTreeState, className: string): string[] {
  const view = new ToolCallsView();
  view.draw(state.root!);
  view.toggle();
  return (view.root as FakeElement).children.filter((li) => li.className === 'tool-call').map((li) => li.find(className)?.textContent ?? '');
}

describe("a tool call's result in the page's list of calls", () => {
  beforeAll(() => vi.stubGlobal('document', fakeDocument));
  afterAll(() => vi.unstubAllGlobals());

  it('shows escapes and bidi controls marked, line breaks kept', () => {
    const main = new FixtureRun('r', 'main');
    const read = call('c1', 'read', { path: 'notes' });
    const state = fold([main.start('go'), ...main.toolStep(1, read, 'line 1\n\u001b]0;owned\u0007\u001b[2Jsee \u202Etxt.exe')]);
    expect(drawn(state, 'call-result')).toEqual(['line 1\n<U+001B>]0;owned<U+0007><U+001B>[2Jsee <U+202E>txt.exe']);
  });

  it('keeps tabs as tabs, and a mark the text spells reads back as spelled', () => {
    const main = new FixtureRun('r', 'main');
    const read = call('c1', 'read', { path: 'Makefile' });
    const state = fold([main.start('go'), ...main.toolStep(1, read, 'all:\n\tmake\tit\r\nsee <U+0009>')]);
    expect(drawn(state, 'call-result')).toEqual(['all:\n\tmake\tit<U+000D>\nsee <U+003C>U+0009>']);
  });

  it('is cut as an error is: marked only as far as kept, never inside a character', () => {
    const main = new FixtureRun('r', 'main');
    const read = call('c1', 'read', { path: 'big' });
    const text = `${'\u0001'.repeat(RESULT_CHARS - 1)}😀${'x'.repeat(9_999)}`;
    const state = fold([main.start('go'), ...main.toolStep(1, read, text)]);
    // the emoji straddles the cut: dropped whole, not half of it kept
    expect(drawn(state, 'call-result')).toEqual([`${'<U+0001>'.repeat(RESULT_CHARS - 1)}… (10001 more characters)`]);
  });
});

describe("a tool call's approval in the page's list of calls", () => {
  beforeAll(() => vi.stubGlobal('document', fakeDocument));
  afterAll(() => vi.unstubAllGlobals());

  it('shows the reason and the comment marked', () => {
    const main = new FixtureRun('r', 'main');
    const bash = call('c1', 'bash', { command: 'make' });
    const state = fold([
      main.start('go'), main.toolStart(1, bash),
      main.approvalPending(bash, 'asks for \u202Eexe.txt\u001b[8m'),
      main.approvalDecided(bash, 'reject', 'no\u200B\nway\u001b[2J'),
    ]);
    expect(drawn(state, 'call-approval')).toEqual(['rejected (no<U+200B>\nway<U+001B>[2J) · asked because: asks for <U+202E>exe.txt<U+001B>[8m']);
  });

  it('shows a waiting reason marked', () => {
    const main = new FixtureRun('r', 'main');
    const bash = call('c1', 'bash', { command: 'make' });
    const state = fold([main.start('go'), main.toolStart(1, bash), main.approvalPending(bash, 'why\u2066 not')]);
    expect(drawn(state, 'call-approval')).toEqual(['waiting for approval · asked because: why<U+2066> not']);
  });
});
