/**
 * The page's list of a task's tool calls shows a call's error as the rest of the page shows
 * text: an escape sequence or a bidi override in it (a tool's or a server's words) is marked
 * (`<U+001B>`, `<U+202E>`), its line breaks kept; and a reason the tree wrote there when the
 * stream ended, already marked, is not marked a second time. In an in-memory document
 * (`fake-dom.ts`), from the tree the page folds.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTreeState, reduceTree, settleTree, type TaskTreeState } from '../../../src/adapters/task-tree/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { ToolCallsView } from '../../../src/web/page/tool-calls-view.js';
import { call, FixtureRun } from '../../adapters/fixtures.js';
import { fakeDocument, type FakeElement } from './fake-dom.js';

const fold = (events: readonly AgentEvent[]): TaskTreeState => events.reduce((s, e, i) => reduceTree(s, e, i), createTreeState());

/** The text of each drawn call's error. */
function errors(state: TaskTreeState): string[] {
  const view = new ToolCallsView();
  view.draw(state.root!);
  view.toggle();
  return (view.root as FakeElement).children.filter((li) => li.className === 'tool-call').map((li) => li.find('call-error')?.textContent ?? '');
}

describe("a tool call's error in the page's list of calls", () => {
  beforeAll(() => vi.stubGlobal('document', fakeDocument));
  afterAll(() => vi.unstubAllGlobals());

  it('shows escapes and bidi controls marked, line breaks kept', () => {
    const main = new FixtureRun('r', 'main');
    const bash = call('c1', 'bash', { command: 'make' });
    const state = fold([main.start('go'), ...main.toolStep(1, bash, '', 'exit 2\n\u001b]0;owned\u0007\u001b[2Jcheck \u202Etxt.exe')]);
    expect(errors(state)).toEqual(['exit 2\n<U+001B>]0;owned<U+0007><U+001B>[2Jcheck <U+202E>txt.exe']);
  });

  it("shows a stream's end reason marked once", () => {
    const main = new FixtureRun('r', 'main');
    const bash = call('c1', 'bash', { command: 'make' });
    const state = settleTree(fold([main.start('go'), main.toolStart(1, bash)]), 9, 'lost\u001b[0m');
    expect(errors(state)).toEqual(['lost<U+001B>[0m']);
  });
});
