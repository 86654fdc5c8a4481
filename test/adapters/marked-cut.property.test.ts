/**
 * A tool call's label is cut to the tree's width after its hidden characters are marked
 * (`<U+202E>`). The cut split a mark (`…il<U+20…`), so the reader could not tell which
 * character was there; and an agent's name showed its escape sequences marked on its tool's
 * line (`task evil<U+001B>]8;;…`) but silently dropped on its task's (`[evil#1]`).
 */
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { plainLine } from '../../src/adapters/index.js';
import { fitLines, fitMarked } from '../../src/adapters/terminal-tree/fit-line.js';
import { toolLabel } from '../../src/adapters/terminal-tree/tool-label.js';
import { call, FixtureRun } from './fixtures.js';

const piece = fc.constantFrom(
  'a', 'evil', ' ', '<', '<U', '<U+', 'U+20', '>', '\u202e', '\u2066', '\u200b', '\u0085', '\u2028', '\n', '\r', '\t', '\u0000', '\u0001',
  '\u001b', '\u001b[31m', '\u001b]8;;http://x\u0007', '\u009b2J', '\ufeff', '\u{e0041}', '\u{10ffff}', '😀', '中', '\ud800',
);
/** Hostile text: a few hundred pieces at most, controls, bidi controls and look-alike marks among them. */
const text = fc.array(piece, { minLength: 1, maxLength: 200 }).map((pieces) => pieces.join(''));
const width = fc.integer({ min: 1, max: 130 });
const settings = { seed: 68, numRuns: 500 };

/** Where `shown` holds a `<U+` that is not a whole mark (`<U+XXXX>`): none, or the first such. */
const partialMark = (shown: string): string | undefined => /<U\+(?![0-9A-F]{4,6}>).{0,8}/su.exec(shown)?.[0];

describe('a marked text cut to a width', () => {
  it('never shows part of a mark, and fits the width', () => {
    fc.assert(
      fc.property(text, width, (t, w) => {
        for (const shown of [fitMarked(t, w), fitLines(t, w)]) {
          expect(partialMark(shown)).toBeUndefined();
          expect(stringWidth(shown)).toBeLessThanOrEqual(w);
          expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e\u2066]/u);
        }
      }),
      settings,
    );
  });

  it('a tool call\'s label: its name and its argument, each whole marks within its columns', () => {
    fc.assert(
      fc.property(text, text, width, (name, command, w) => {
        const label = toolLabel(name, { command }, w);
        expect(partialMark(label)).toBeUndefined();
        expect(stringWidth(label)).toBeLessThanOrEqual(64 + 1 + w);
      }),
      settings,
    );
  });

  it('cuts before a mark the width would split, and keeps one that fits whole', () => {
    // 'evil<U+202E>' is 12 columns: at 8 a cut inside the mark was `evil<U+…`
    expect(fitMarked('evil\u202e', 8)).toBe('evil…');
    expect(fitMarked('evil\u202eok', 13)).toBe('evil<U+202E>…');
    expect(toolLabel('bash', { command: 'rm -rf evil\u202eexe.txt' }, 15)).toBe('bash rm -rf evil…');
  });
});

describe('an agent\'s name on its task\'s line and on its tool\'s line', () => {
  it('shows the same: escape sequences and hidden characters marked alike', () => {
    fc.assert(
      fc.property(text, (name) => {
        const child = new FixtureRun('m', 'main').task({ taskId: 't', agentName: name, description: 'd' });
        const line = plainLine(child.toolStart(1, call('c', name, {})))!;
        const [, onTask, onTool] = /^\[(.*)#1\] tool (.*) started$/su.exec(line)!;
        expect(onTask).toBe(onTool);
        expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e\u2066]/u);
      }),
      settings,
    );
    const child = new FixtureRun('m', 'main').task({ taskId: 't', agentName: 'evil\u001b]8;;x\u0007\u202e', description: 'd' });
    expect(plainLine(child.toolStart(1, call('c', 'read', { path: 'a' })))).toBe('[evil<U+001B>]8;;x<U+0007><U+202E>#1] tool read a started');
  });
});
