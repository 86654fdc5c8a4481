import fc from 'fast-check';
import stringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { createTreeState, plainLine, reduceTree, renderTree, type TaskTreeState } from '../../src/adapters/index.js';
import { call, FixtureRun } from './fixtures.js';

// Whatever a model, a tool or a hostile NDJSON line puts in names and text, every line of
// the tree fits the terminal as string-width measures it (log-update wraps by that measure,
// and a wrapped line breaks its redraw), carries no control or escape of its own, and shows
// `…` wherever it was cut.

/** Pieces that are hard to measure or to cut, and pieces that must never reach the terminal raw. */
const piece = fc.constantFrom(
  'ok', 'npm test', ' ', '  ', '中文', '한국어', 'ｶﾞ', 'Ａ', '\u1100\u1161', '±', '…',
  '✅', '👩‍💻', '🇫🇷', '👍🏽', '❤️', '1️⃣', '🏳️‍🌈', 'e\u0301', '\u0301', '\u200b', '\u200d', '\ufe0f', '\u{e0041}', '\ud800',
  '\u001b[31m', '\u001b[0m', '\u001b[2J', '\u001b]8;;http://x\u0007link\u001b]8;;\u0007', '\u001bc', '\u009b1A',
  '\t', '\n', '\r', '\u0007', '\u0008', '\u0085', '\u202e', '\u2028',
);
const text = fc.oneof(
  fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.array(fc.oneof(piece, fc.string({ unit: 'grapheme', maxLength: 6 })), { maxLength: 10 }).map((parts) => parts.join('')),
);
const names = fc.array(text, { minLength: 10, maxLength: 10 });
const settings = { seed: 1_515, numRuns: 300 };

/** A main run with a task and a nested task, every name and text taken from `t`. */
function hostileRun(t: readonly string[]): AgentEvent[] {
  const main = new FixtureRun('m', t[0]!);
  const task = main.task({ taskId: 'a', agentName: t[1]!, description: t[2]!, multitask: true, taskIndex: 2 });
  const inner = task.task({ taskId: 'b', agentName: t[3]!, description: t[4]! });
  const tool = call('c1', t[5]!, { command: t[6]! });
  return [
    main.start(t[7]!),
    task.start('go'),
    ...task.reason(1, t[8]!).slice(0, -1),
    inner.start('go'),
    inner.toolStart(1, tool),
    task.toolStart(1, call('c2', 'bash', { command: t[6]! })),
    task.approvalPending(call('c2', 'bash', { command: t[6]! }), t[9]!),
    inner.end(t[8]!, { abnormal: true, error: t[9]! }),
  ];
}

function fold(events: readonly AgentEvent[]): TaskTreeState {
  return events.reduce((s, e, i) => reduceTree(s, e, i * 10), createTreeState());
}

/** C0 and C1 controls, escape included: none may be left in a line. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('renderTree over hostile and hard-to-measure text', () => {
  it('never draws a line wider than width, and cuts only with a visible …', () => {
    fc.assert(
      fc.property(names, fc.integer({ min: 1, max: 120 }), (t, width) => {
        const state = fold(hostileRun(t));
        const wide = renderTree(state, { now: 500, width: 100_000 }).split('\n');
        const lines = renderTree(state, { now: 500, width }).split('\n');
        expect(lines).toHaveLength(wide.length);
        lines.forEach((line, i) => {
          expect(stringWidth(line), JSON.stringify(line)).toBeLessThanOrEqual(width);
          expect(line).not.toMatch(CONTROL);
          const whole = wide[i]!;
          if (stringWidth(whole) <= width) expect(line).toBe(whole);
          else {
            expect(line.endsWith('…'), JSON.stringify(line)).toBe(true);
            expect(whole.startsWith(line.slice(0, -1))).toBe(true);
          }
        });
      }),
      settings,
    );
  });

  it('colours without changing what is shown or its width', () => {
    fc.assert(
      fc.property(names, fc.integer({ min: 1, max: 120 }), (t, width) => {
        const state = fold(hostileRun(t));
        const plain = renderTree(state, { now: 500, width });
        const coloured = renderTree(state, { now: 500, width, color: true });
        expect(stripAnsi(coloured)).toBe(plain);
        for (const line of coloured.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(width);
      }),
      settings,
    );
  });
});

describe('plainLine over the same text', () => {
  it('writes one line per event, with no control or escape in it', () => {
    fc.assert(
      fc.property(names, (t) => {
        for (const event of hostileRun(t)) {
          const line = plainLine(event);
          if (line !== undefined) expect(line, JSON.stringify(line)).not.toMatch(CONTROL);
        }
      }),
      settings,
    );
  });
});
