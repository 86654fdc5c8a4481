/**
 * The model names the tool, and its arguments: 2,000,000 zero-width spaces pass a server's
 * reply cap, and the engine emits `ToolCallStart` and `ToolCallEnd` (whose error quotes the
 * unknown name) with them. The tree shows 64 columns of a name, 40 of an argument, 120 of a
 * detail: only that start may be marked. Marked whole (`<U+200B>` for each, about a
 * microsecond apiece) one event took seconds, on the terminal and on the web page (the same
 * reducer). Asserted: the label is the one the start of the text gives (as the whole gave
 * before), and the work done for it is that start's: the regular-expression matches tried
 * (one per marked character) are counted, not timed.
 */
import { Writable } from 'node:stream';
import { from } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTreeState, liveTree, plainLine, reduceTree, renderTree, toolLabel } from '../../src/adapters/terminal-tree/index.js';
import { shownTreeName } from '../../src/adapters/terminal-tree/tool-label.js';
import type { AgentEvent } from '../../src/events/index.js';
import { call, FixtureRun } from './fixtures.js';

const HOSTILE = 2_000_000;
const ZW = '\u200b';
const zw = ZW.repeat(HOSTILE);
/** `<U+200B>` as many times as fit whole in `columns - 1` columns, then `…`: a marked run cut before a mark, never inside one. */
const markedRun = (columns: number): string => `${'<U+200B>'.repeat(Math.floor((columns - 1) / 8))}…`;
const unknownTool = (name: string): string => `Unknown tool "${name}". Nothing was run. Available tools: read, bash.`;
/** A hundredth of the hostile text: a few lines' worth of marks, far below one per character. */
const MOST_MATCHES = HOSTILE / 100;

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * What `make` returns, made while every regular-expression match is counted (`replace`,
 * `search` and `split` call `exec` once per match): failing when it tried more than
 * {@link MOST_MATCHES}, i.e. when it marked the text whole rather than the start that shows.
 */
function fromTheStart<T>(make: () => T): T {
  let matches = 0;
  const exec = RegExp.prototype.exec;
  vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, text: string) {
    if (++matches > MOST_MATCHES) throw new Error(`${matches} regular-expression matches: the whole text is being marked`);
    return exec.call(this, text);
  });
  try {
    return make();
  } finally {
    vi.restoreAllMocks();
  }
}

describe('a tool name or argument of 2,000,000 characters the model made up', () => {
  it('is labelled from its start: as the first thousand characters are, cut to 64 (name) and 40 (argument) columns', () => {
    expect(fromTheStart(() => shownTreeName(zw))).toBe(markedRun(64));
    expect(fromTheStart(() => toolLabel(zw, {}))).toBe(markedRun(64));
    expect(fromTheStart(() => toolLabel('read', { path: zw }))).toBe(`read ${markedRun(40)}`);
    // mixed text: whatever the start holds, the label is the label of that start
    const texts = [`ab\u202e${ZW.repeat(HOSTILE)}`, `x${'\u{e0100}'.repeat(HOSTILE / 2)}`, `ls ${'<U+'.repeat(HOSTILE / 3)}`, 'echo hi\n'.repeat(HOSTILE / 8), `😀${'\u0085 '.repeat(HOSTILE / 2)}`];
    for (const text of texts) {
      expect(fromTheStart(() => shownTreeName(text))).toBe(shownTreeName(text.slice(0, 1000)));
      expect(fromTheStart(() => toolLabel('bash', { command: text }))).toBe(toolLabel('bash', { command: text.slice(0, 1000) }));
    }
    expect(fromTheStart(() => toolLabel('bash', { command: '\n'.repeat(HOSTILE) }))).toBe(toolLabel('bash', { command: '\n'.repeat(1000) }));
    expect(fromTheStart(() => toolLabel('bash', { command: 'echo hi\n'.repeat(HOSTILE / 8) }))).toBe('bash echo hi ⏎ echo hi ⏎ echo hi ⏎ echo hi ⏎…');
  });

  it('gives plain lines for the start, the end (its error quoting the name) and an approval, from their starts', () => {
    const main = new FixtureRun('r', 'main');
    const named = call('c1', zw, {});
    expect(fromTheStart(() => plainLine(main.toolStart(1, named)))).toBe(`[main] tool ${markedRun(64)} started`);
    expect(fromTheStart(() => plainLine(main.toolStart(1, call('c2', 'bash', { command: zw }))))).toBe(`[main] tool bash ${markedRun(40)} started`);
    const failed = fromTheStart(() => plainLine(main.toolEnd(1, named, `ERROR: ${unknownTool(zw)}`, unknownTool(zw))));
    expect(failed).toBe(`[main] tool ${markedRun(64)} failed: Unknown tool "${markedRun(120 - 'Unknown tool "'.length)}`);
    const asked = fromTheStart(() => plainLine(main.approvalPending(call('c3', 'bash', { command: zw }), zw)));
    expect(asked).toBe(`[main] approval needed for bash ${markedRun(120)}: ${markedRun(120)}`);
  });

  it('is folded into the tree and drawn from its start, on a terminal and off one', async () => {
    const main = new FixtureRun('r', 'main');
    const named = call('c1', zw, { path: zw });
    const events: AgentEvent[] = [main.start('go'), main.toolStart(1, named), main.toolEnd(1, named, 'ERROR', unknownTool(zw)), main.end('done')];

    const running = fromTheStart(() => [events[0]!, events[1]!].reduce((state, event) => reduceTree(state, event, 0), createTreeState()));
    expect(running.root?.currentTool).toBe(`${markedRun(64)} ${markedRun(40)}`);
    expect(renderTree(running, { now: 0, width: 200 })).toBe(`⠋ main go (0.0s) ▸ ${markedRun(64)} ${markedRun(40)}`);

    // `from` emits at once: the operator has done its work when `subscribe` returns
    const recorder = (): { output: Writable; text: () => string } => {
      let text = '';
      return { output: new Writable({ write: (c: Buffer, _e, done) => void ((text += c.toString()), done()) }), text: () => text };
    };
    const plain = recorder();
    fromTheStart(() => from(events).pipe(liveTree({ output: plain.output })).subscribe());
    expect(plain.text().split('\n').slice(0, 2)).toEqual([
      `[main] tool ${markedRun(64)} ${markedRun(40)} started`,
      `[main] tool ${markedRun(64)} failed: Unknown tool "${markedRun(106)}`,
    ]);
    const tty = recorder();
    fromTheStart(() => from(events).pipe(liveTree({ output: Object.assign(tty.output, { isTTY: true, columns: 100 }), color: false })).subscribe());
    expect(tty.text()).toContain('✔ main go (1.5s, 100 tok)');
  });
});
