/**
 * The task tree is the data the web page and other UIs draw. It dropped an agent's escape
 * sequences silently (`evil\u001b]8;;x\u0007` became `evil`), while the terminal's lines
 * marked them (`evil<U+001B>]8;;x<U+0007>`): one name read two ways. Asserted: the tree's
 * names (an agent's, a tool's waiting for approval) hold no raw control or format character
 * and are what the terminal's plain lines show for the same name; a long one is cut.
 */
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { createTreeState, plainLine, reduceTree, treeRows, type TaskTreeState, type TreeNode } from '../../../src/adapters/index.js';
import type { AgentEvent } from '../../../src/events/index.js';
import { call, FixtureRun } from '../fixtures.js';

const piece = fc.constantFrom(
  'a', 'evil', ' ', ']', '#1', '<U+', '\u202e', '\u2066', '\u200b', '\u200d', '\u0085', '\u2028', '\n', '\r', '\t', '\u0000',
  '\u001b', '\u001b[31m', '\u001b]8;;http://x\u0007', '\u009b2J', '\ufeff', '\u{e0041}', '😀', '中', '\ud800',
);
/** A hostile name: controls, bidi controls, OSC 8 links, zero-width characters, a lone surrogate. */
const name = fc.array(piece, { minLength: 1, maxLength: 40 }).map((pieces) => pieces.join(''));
const settings = { seed: 68, numRuns: 300 };
const RAW = /[\p{Cc}\p{Cf}\p{Cs}]/u;

function fold(events: readonly AgentEvent[]): TaskTreeState {
  return events.reduce((state, event, i) => reduceTree(state, event, i * 10), createTreeState());
}

/** The name a plain line of a tool start shows in its brackets: `[name] tool read started` (a task's ends in `#1`). */
function shownInLine(line: string | undefined): string {
  return /^\[(.*)\] tool read started$/su.exec(line ?? '')![1]!;
}

describe('an agent\'s name on the task tree', () => {
  it('holds no raw control or format character, and is what the terminal shows for it', () => {
    fc.assert(
      fc.property(name, (agent) => {
        const main = new FixtureRun('m', agent);
        const child = main.task({ taskId: 't', agentName: agent, description: 'd' });
        const read = call('c', 'read', {});
        const onTerminal = { main: shownInLine(plainLine(main.toolStart(1, read))), child: shownInLine(plainLine(child.toolStart(1, read))) };
        expect(onTerminal.child).toBe(`${onTerminal.main}#1`);
        // the child's node made by its tool start (no start seen yet), then named again by its start
        const made = fold([main.start('go'), child.toolStart(1, read)]);
        const started = fold([main.start('go'), child.toolStart(1, read), child.start('p')]);
        for (const state of [made, started]) {
          const [root, task] = treeRows(state).map((row) => row.node) as [TreeNode, TreeNode];
          expect(root.agentName).not.toMatch(RAW);
          expect(root.agentName).toBe(onTerminal.main);
          expect(`${task.agentName}#${task.taskIndex}`).toBe(onTerminal.child);
        }
      }),
      settings,
    );
  });

  it('marks an OSC 8 link and a bidi override rather than dropping them, and is cut to 64 columns', () => {
    const main = new FixtureRun('m', 'main');
    const evil = main.task({ taskId: 't', agentName: 'evil\u001b]8;;x\u0007\u202e', description: 'd' });
    expect(treeRows(fold([main.start('go'), evil.start('p')]))[1]!.node.agentName).toBe('evil<U+001B>]8;;x<U+0007><U+202E>');
    const long = main.task({ taskId: 'l', agentName: `${'a'.repeat(100_000)}\u001b`, description: 'd' });
    const shown = treeRows(fold([main.start('go'), long.start('p')]))[1]!.node.agentName;
    expect(shown).toBe(`${'a'.repeat(63)}…`);
    expect(stringWidth(shown)).toBeLessThanOrEqual(64);
  });
});

describe('a tool\'s name waiting for approval on the task tree', () => {
  it('is what the terminal shows for that tool', () => {
    fc.assert(
      fc.property(name, (tool) => {
        const main = new FixtureRun('m', 'main');
        const asked = call('c', tool, {});
        const onTerminal = /^\[main\] tool (.*) started$/su.exec(plainLine(main.toolStart(1, asked)) ?? '')![1];
        const node = fold([main.start('go'), main.toolStart(1, asked), main.approvalPending(asked, 'why')]).root!;
        expect(node.awaitingApproval).not.toMatch(RAW);
        expect(node.awaitingApproval).toBe(onTerminal);
      }),
      settings,
    );
  });
});
