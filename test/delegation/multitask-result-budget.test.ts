/**
 * A `multitask` result is bounded as a whole: its entries share
 * MULTITASK_RESULT_SHARES × maxResultChars of content, the longest cut first, each cut entry
 * with the marker, the format unchanged. Without the shared budget, N long answers made a
 * result N × maxResultChars long.
 */
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { collect, own } from '../support/collect-events.js';
import { multitaskArgs, type TaskTuple } from '../support/delegation-script.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';
import { heldContent, MULTITASK_ENTRY_FLOOR, MULTITASK_RESULT_SHARES, shareResultBudget } from '../../src/delegation/multitask-budget.js';
import type { TaskResultFields } from '../../src/delegation/task-result-format.js';

const startOffline = offlineEnginePerTest();

const entry = (index: number, content: string): TaskResultFields => ({ index, description: `d${index}`, agentName: 'alpha', taskId: `t${index}`, status: 'success', content });
const MARKER = /\n\[\.\.\. (\d+) characters truncated by rxharness \.\.\.\]$/;

/** Each `<task_result>` of a multitask's text (a marker puts a line break inside its content): its index, what it kept, and how much its marker says was cut (0: none). */
function entriesOf(text: string): { index: number; kept: string; omitted: number }[] {
  expect(text.startsWith('<multitask_results>\n<task_result>')).toBe(true);
  expect(text.endsWith('</task_result>\n</multitask_results>')).toBe(true);
  return [...text.matchAll(/<task_result><index>(\d+)<\/index>.*?<result_content><!\[CDATA\[([\s\S]*?)\]\]><\/result_content><\/task_result>/g)].map((m) => {
    const raw = m[2]!;
    const marker = MARKER.exec(raw);
    return { index: Number(m[1]), ...(marker ? { kept: raw.slice(0, marker.index), omitted: Number(marker[1]) } : { kept: raw, omitted: 0 }) };
  });
}

describe('shareResultBudget', () => {
  it('keeps short entries whole and gives what they leave to the long ones', () => {
    // max 100 each, 400 together: they fit, so only the one over 100 is cut
    const out = shareResultBudget([entry(1, 'a'.repeat(10)), entry(2, 'b'.repeat(500)), entry(3, 'c'.repeat(20)), entry(4, 'd'.repeat(90)), entry(5, 'e'.repeat(100))], 100);
    expect(out.map((r) => r.content.replace(MARKER, '').length)).toEqual([10, 100, 20, 90, 100]);
    const tight = shareResultBudget([entry(1, 'a'.repeat(100)), ...[2, 3, 4, 5, 6].map((i) => entry(i, 'x'.repeat(10_000)))], 1_000);
    // 4,000 - 100 = 3,900 for five long entries: 780 each
    expect(tight.map((r) => r.content.replace(MARKER, '').length)).toEqual([100, 780, 780, 780, 780, 780]);
    expect(tight.slice(1).every((r) => MARKER.exec(r.content)?.[1] === String(10_000 - 780))).toBe(true);
  });

  it('keeps MULTITASK_ENTRY_FLOOR of each entry when the list is too long for the budget, each marked', () => {
    const out = shareResultBudget(Array.from({ length: 100 }, (_, i) => entry(i + 1, `${i + 1}:`.padEnd(500, 'z'))), 1_000);
    // 4,000 for 100 entries would be 40 each: each keeps the floor, and says the rest went
    out.forEach((r, i) => expect(r.content).toBe(`${`${i + 1}:`.padEnd(MULTITASK_ENTRY_FLOOR, 'z')}\n[... ${500 - MULTITASK_ENTRY_FLOOR} characters truncated by rxharness ...]`));
    // an entry held cut at maxResultChars (heldContent) gets its marker, counting what went before
    const held = { ...entry(1, ''), ...heldContent('h'.repeat(1_500), 1_000) };
    expect(shareResultBudget([held], 1_000)[0]!.content).toBe(`${'h'.repeat(1_000)}\n[... 500 characters truncated by rxharness ...]`);
    expect(shareResultBudget([held, ...Array.from({ length: 99 }, (_, i) => entry(i + 2, 'z'.repeat(500)))], 1_000)[0]!.content).toBe(
      `${'h'.repeat(MULTITASK_ENTRY_FLOOR)}\n[... ${1_500 - MULTITASK_ENTRY_FLOOR} characters truncated by rxharness ...]`,
    );
    // and never more than maxResultChars
    expect(shareResultBudget([entry(1, 'z'.repeat(30))], 10)[0]!.content).toBe(`${'z'.repeat(10)}\n[... 20 characters truncated by rxharness ...]`);
  });
});

describe('a multitask whose children all answer at length', () => {
  it('returns one line per task in index order, their contents within the shared budget, each cut one marked', async () => {
    const n = 40;
    const maxResultChars = 1_000;
    const tasks: TaskTuple[] = Array.from({ length: n }, (_, i) => [i + 1, 'alpha', `job ${i + 1}`, `label ${i + 1}`] as const);
    const o = await startOffline(
      // every 10th child answers briefly, the others with 5,000 characters
      { main: scriptedSteps({ toolCalls: [{ name: 'multitask', args: multitaskArgs(tasks) }] }), alpha: (t) => ({ text: t.prompt.endsWith('0') ? 'short' : `${t.prompt}:`.padEnd(5_000, '#') }) },
      [testAgent('alpha')],
      { multitaskMaxTasks: 8, maxResultChars },
    );
    const events = await collect(o.engine.stream('go'));
    const contents = entriesOf(own(events, 'ToolCallEnd')[0]!.text);
    expect(contents.map((c) => c.index)).toEqual(tasks.map((t) => t[0]));
    const total = contents.reduce((sum, c) => sum + c.kept.length, 0);
    expect(total).toBeLessThanOrEqual(MULTITASK_RESULT_SHARES * maxResultChars);
    contents.forEach((c, i) => {
      if ((i + 1) % 10 === 0) expect(c).toEqual({ index: i + 1, kept: 'short', omitted: 0 });
      else {
        // 4,000 - 4 × 5 = 3,980 for 36 long answers: 110 each; the start kept, the rest counted
        expect(c.kept).toBe(`job ${i + 1}:`.padEnd(110, '#'));
        expect(c.omitted).toBe(5_000 - 110);
      }
    });
  }, 60_000);

  it('leaves a few answers as a task result would: each cut at maxResultChars only', async () => {
    const tasks: TaskTuple[] = [1, 2].map((i) => [i, 'alpha', `job ${i}`, `label ${i}`] as const);
    const o = await startOffline(
      { main: scriptedSteps({ toolCalls: [{ name: 'multitask', args: multitaskArgs(tasks) }] }), alpha: (t) => ({ text: t.prompt.padEnd(1_500, '#') }) },
      [testAgent('alpha')],
      { maxResultChars: 1_000 },
    );
    const events = await collect(o.engine.stream('go'));
    expect(entriesOf(own(events, 'ToolCallEnd')[0]!.text)).toEqual([1, 2].map((i) => ({ index: i, kept: `job ${i}`.padEnd(1_000, '#'), omitted: 500 })));
  });
});
