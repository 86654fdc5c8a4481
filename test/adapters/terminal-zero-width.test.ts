/**
 * Characters that show as nothing on a terminal make a hostile agent name look like a trusted
 * one (`expl\u200Bore` drawn as `explore`) and hide text inside a description or a tool
 * result. The tree and the plain lines mark them, as they mark bidi controls; the joiners
 * that emoji and several scripts need stay as they are.
 */
import { describe, expect, it } from 'vitest';
import { createTreeState, plainLine, reduceTree, renderTree, treeRows, type TaskTreeState } from '../../src/adapters/index.js';
import { oneLine, stripControls } from '../../src/adapters/terminal-tree/text-line.js';
import type { AgentEvent } from '../../src/events/index.js';
import { FixtureRun } from './fixtures.js';

/** Zero-width space, word joiner, invisible times, BOM, soft hyphen, Mongolian vowel separator, annotation anchor. */
const HIDDEN = ['\u200b', '\u2060', '\u2062', '\ufeff', '\u00ad', '\u180e', '\ufff9'];
const RAW_HIDDEN = /[\u00ad\u180e\u200b\u2060-\u2064\ufeff\ufff9-\ufffb]/u;

function fold(events: readonly AgentEvent[]): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, i * 10), createTreeState());
}

describe('characters that show as nothing, from a child', () => {
  it('are marked in an agent name, a task description, a streamed tail and a tool error', () => {
    const main = new FixtureRun('r', 'main');
    const name = `expl${HIDDEN.join('')}ore`;
    const child = main.task({ taskId: 't1', agentName: name, description: `fix${HIDDEN.join('')} tests` });
    const events = [main.start('go'), child.start('p'), ...child.reason(1, `all${HIDDEN.join('')} good`)];
    const tree = renderTree(fold(events), { now: 50, width: 400 });
    expect(tree).not.toMatch(RAW_HIDDEN);
    expect(tree).toContain('expl<U+200B><U+2060><U+2062><U+FEFF><U+00AD><U+180E><U+FFF9>ore');
    expect(treeRows(fold(events))[1]!.node.agentName).not.toBe('explore');
    expect(plainLine(child.start('p'))).not.toMatch(RAW_HIDDEN);
    const failed = child.toolStep(1, { callId: 'c', name: 'bash', args: { command: 'ls' } }, '', `denied\u200b`);
    for (const event of failed) expect(plainLine(event) ?? '').not.toMatch(RAW_HIDDEN);
  });

  it('leave the joiners of emoji and scripts alone', () => {
    const main = new FixtureRun('r', 'main');
    const child = main.task({ taskId: 't1', agentName: 'coder', description: 'ship 👩‍💻 می‌خواهم' });
    const tree = renderTree(fold([main.start('go'), child.start('p')]), { now: 50, width: 400 });
    expect(tree).toContain('ship 👩‍💻 می‌خواهم');
  });

  it('mark tags, the rarer variation selectors, blank letters and invisible musical beams', () => {
    // `coder` then "rm -rf ~" spelled in tag characters and a cancel tag: shown as nothing by a terminal
    const spelled = [...'rm -rf ~'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const hidden = ['\u{e0001}', spelled, '\u{e007f}', '\u{e0100}', '\u{e01ef}', '\u034f', '\u115f', '\u1160', '\u3164', '\u{1d173}', '\u{1d17a}'];
    const shown = oneLine(`coder${hidden.join('')}!`);
    expect(shown).not.toMatch(/[\u{e0000}-\u{e01ef}\u034f\u115f\u1160\u3164\u{1d173}-\u{1d17a}]/u);
    expect(shown).toContain('coder<U+E0001><U+E0072><U+E006D><U+E0020><U+E002D>');
    expect(shown).toContain('<U+E007F><U+E0100><U+E01EF><U+034F><U+115F><U+1160><U+3164><U+1D173><U+1D17A>!');
    const main = new FixtureRun('r', 'main');
    const child = main.task({ taskId: 't1', agentName: `coder${spelled}`, description: 'd' });
    const tree = renderTree(fold([main.start('go'), child.start('p')]), { now: 50, width: 400 });
    expect(tree).toContain('coder<U+E0072>');
    expect(plainLine(child.start('p'))).toContain('coder<U+E0072>');
  });

  it('keep the England, Scotland and Wales flags whole, but not a black flag spelling anything else', () => {
    const flag = (region: string): string => `\u{1f3f4}${[...region].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}\u{e007f}`;
    const flags = `${flag('gbeng')} ${flag('gbsct')} ${flag('gbwls')} 👍🏽 ❤️`;
    expect(stripControls(`go ${flags}`)).toBe(`go ${flags}`);
    expect(stripControls(flag('hi'))).toBe('\u{1f3f4}<U+E0068><U+E0069><U+E007F>');
    // a flag's tags with no cancel tag, or with more after it, hide no text either
    expect(stripControls(flag('gbeng').slice(0, -2))).not.toMatch(/[\u{e0000}-\u{e007f}]/u);
    expect(stripControls(`${flag('gbeng')}\u{e0078}`)).toBe(`${flag('gbeng')}<U+E0078>`);
  });
});
