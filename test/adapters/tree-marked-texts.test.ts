/**
 * The task tree shows what a text held instead of dropping it unseen: a settled stream's
 * reason and a tool call's error are marked (`<U+001B>`) as the tree's other texts are, and a
 * tree line cut to the terminal's width never ends in half a mark (`<U+00…`), which would hide
 * which character was there.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { createTreeState, reduceTree, renderTree, settleTree, type TaskTreeState } from '../../src/adapters/index.js';
import stringWidth from 'string-width';
import { call, FixtureRun } from './fixtures.js';

const ANSI = /\u001b\[[0-9;]*m/g;
/** A whole mark as `markInvisible` writes it. */
const MARK = /<U\+[0-9A-F]{4,6}>/g;

function fold(events: readonly AgentEvent[]): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, i * 10), createTreeState());
}

describe('settleTree', () => {
  it("marks the escapes of the stream's reason on the nodes and the calls it ends, as one line", () => {
    const main = new FixtureRun('r', 'main');
    const bash = call('c1', 'bash', { command: 'make' });
    const settled = settleTree(fold([main.start('go'), main.toolStart(1, bash)]), 99, 'lost\u001b[2J\r\nthe\u202Econnection');
    const shown = 'lost<U+001B>[2J the<U+202E>connection';
    expect(settled.root).toMatchObject({ status: 'failed', error: shown });
    expect(settled.root?.tools[0]).toMatchObject({ status: 'failed', error: shown });
  });
});

describe("a tool call's error", () => {
  it('is kept with its escapes and bidi controls marked, its line breaks kept', () => {
    const main = new FixtureRun('r', 'main');
    const bash = call('c1', 'bash', { command: 'make' });
    const state = fold([main.start('go'), ...main.toolStep(1, bash, '', '\u001b[31mdenied\u001b[0m\nsee \u202Etxt.exe')]);
    expect(state.root?.tools[0]).toMatchObject({ status: 'failed', error: '<U+001B>[31mdenied<U+001B>[0m\nsee <U+202E>txt.exe' });
  });

  it('is kept by its start, as a result is: only that start is marked', () => {
    const main = new FixtureRun('r', 'main');
    const bash = call('c1', 'bash', { command: 'make' });
    const state = fold([main.start('go'), ...main.toolStep(1, bash, '', `${'\u0001'.repeat(2_000)}\u0002${'x'.repeat(9_999)}`)]);
    expect(state.root?.tools[0]?.error).toBe(`${'<U+0001>'.repeat(2_000)}… (10000 more characters)`);
  });
});

describe('a tree line cut to the width', () => {
  it('never splits a mark, with or without colour, at any width', () => {
    const main = new FixtureRun('r', 'main');
    // every cut past the name falls on a mark, at one of its eight places
    const state = fold([main.start('\u001b'.repeat(40))]);
    for (let width = 8; width <= 60; width += 1) {
      for (const color of [false, true]) {
        const line = renderTree(state, { now: 0, width, color }).replace(ANSI, '');
        expect(stringWidth(line), line).toBeLessThanOrEqual(width);
        expect(line, `width ${width}`).toMatch(/^\S main (<U\+001B>)*…$/);
        expect(line.replace(MARK, ''), `width ${width}`).not.toContain('<');
      }
    }
  });
});
