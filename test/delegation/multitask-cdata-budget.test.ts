/**
 * A `]]>` is written in 15 characters (its CDATA section is split around it), and the
 * entries of a multitask were cut before that: 200 answers full of `]]>` kept 240 characters
 * each and were written 1,200 each, 240,000 for a budget of 48,000. The cut now counts what
 * is written: the whole text is the budget plus, per entry, its line's XML and labels and
 * its marker (stated below as ENTRY_OVERHEAD).
 */
import { describe, expect, it } from 'vitest';
import { MULTITASK_RESULT_SHARES, shareResultBudget } from '../../src/delegation/multitask-budget.js';
import { cdataHead, cdataLength, formatMultitaskResults, formatTaskResult, truncationMarker, type TaskResultFields } from '../../src/delegation/task-result-format.js';

const MAX = 12_000;
const N = 200;
const entry = (index: number): TaskResultFields => ({
  index,
  description: `check ${index}`,
  agentName: 'explore',
  taskId: `task_${index}`,
  status: 'success',
  content: ']]>'.repeat(MAX / 3), // 12,000 characters, written 60,000
});

/**
 * What an entry's line holds besides its content: its XML and labels (a `<task_result>` with
 * empty content), its marker and its line break: under 300 characters for these labels.
 */
const ENTRY_OVERHEAD = formatTaskResult({ ...entry(N), content: '' }).length + truncationMarker(MAX).length + 1;

describe('multitask entries full of `]]>`', () => {
  it('are cut to their share as written: the text is the budget plus a fixed overhead per entry', () => {
    expect(ENTRY_OVERHEAD).toBeLessThan(300);
    const text = formatMultitaskResults(shareResultBudget(Array.from({ length: N }, (_, i) => entry(i + 1)), MAX));
    const wrapper = '<multitask_results>\n'.length + '</multitask_results>'.length;
    expect(text.length).toBeLessThanOrEqual(MULTITASK_RESULT_SHARES * MAX + N * ENTRY_OVERHEAD + wrapper);
    // Each entry still keeps its start, its splits whole, and says how much went.
    const first = /<index>1<\/index>.*?<!\[CDATA\[([^]*?)\n\[\.\.\. (\d+) characters truncated/.exec(text)!;
    const share = (MULTITASK_RESULT_SHARES * MAX) / N; // 240 written
    const kept = ']]>'.repeat(Math.floor(share / 15)); // 16 splits: 240 written
    expect(first[1]).toBe(kept.replaceAll(']]>', ']]]]><![CDATA[>'));
    expect(Number(first[2])).toBe(MAX - kept.length);
  });
});

describe('cdataHead', () => {
  it('keeps the longest start written within the bound, a `]]>` that does not fit whole keeping its `]]`', () => {
    expect(cdataHead(']]>]]>', 20)).toBe(']]>]]');
    expect(cdataHead(']]>]]>', 30)).toBe(']]>]]>');
    expect(cdataHead('ab]]>cd', 6)).toBe('ab]]');
    expect(cdataHead('ab]]>cd', 17)).toBe('ab]]>');
    expect(cdataHead('a😀b', 2)).toBe('a');
    for (const text of [']]>x]]]>y', ']]]]>>', 'plain text']) {
      for (let max = 0; max <= cdataLength(text); max++) {
        const head = cdataHead(text, max);
        expect(text.startsWith(head)).toBe(true);
        expect(cdataLength(head)).toBeLessThanOrEqual(max);
        // one more character would not fit (or the whole text is kept)
        if (head.length < text.length) expect(cdataLength(text.slice(0, head.length + 1))).toBeGreaterThan(max);
      }
    }
  });
});
