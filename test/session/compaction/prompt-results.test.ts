/**
 * The background results in front of a prompt, cut to fit what a compaction keeps of the
 * newest turn (`clipPromptResults`): every result keeps its line and the start and end of its
 * content, a short one stays whole, the CDATA stays well formed (a `]]>` in a result is written
 * split), the engine's own notes and the prompt the user typed are kept, and one note says by
 * how much they were cut. Anything else is left alone.
 */
import { describe, expect, it } from 'vitest';
import type { TaskInfo } from '../../../src/delegation/task-tracker.js';
import { backgroundResults } from '../../../src/engine/background-results.js';
import { clipPromptResults } from '../../../src/session/compaction/prompt-results.js';

const info = (i: number, result: string): TaskInfo => ({
  taskId: `task_${i}`, agentName: 'digger', description: `bg ${i}`, sessionId: 's', parentRunId: 'run_1', background: true, state: 'done', startedAt: i, endedAt: i + 1, result,
});

/** Each `<task_result>`'s task id and content as written, read back. */
const entriesOf = (text: string): { taskId: string; content: string }[] =>
  [...text.matchAll(/<task_id>([^<]*)<\/task_id>.*?<result_content><!\[CDATA\[([\s\S]*?)\]\]><\/result_content><\/task_result>/g)].map((m) => ({
    taskId: m[1]!,
    content: m[2]!.replaceAll(']]]]><![CDATA[>', ']]>'),
  }));

const NOTE = /\(These background task results were cut from (\d+) to (\d+) characters to fit the context window/g;

describe('clipPromptResults', () => {
  const long = (tag: string): string => `${tag} start ${'x'.repeat(6_000)} ${tag} end`;
  const tasks = [info(0, 'short'), info(1, long('one')), info(2, `two start ${']]>'.repeat(500)} two end`), info(3, long('three'))];
  const block = backgroundResults(tasks, 12_000, { count: 2, taskIds: ['task_old'] });
  const prompt = `${block}\n\nwhat came back?`;

  it('cuts each long result to a share, keeping its start and end, the short one whole, the notes and the prompt', () => {
    const clipped = clipPromptResults(prompt, 4_000)!;
    expect(clipped).toBeDefined();
    expect(clipped.content.length).toBeLessThanOrEqual(4_100);
    expect(clipped.content.startsWith('<background_task_results>\n<task_result>')).toBe(true);
    expect(clipped.content.endsWith('</background_task_results>\n\nwhat came back?')).toBe(true);
    expect(clipped.content).toContain('(2 background task results were dropped unread');
    const entries = entriesOf(clipped.content);
    expect(entries.map((e) => e.taskId)).toEqual(['task_0', 'task_1', 'task_2', 'task_3']);
    expect(entries[0]!.content).toBe('short');
    for (const [i, tag] of [[1, 'one'], [2, 'two'], [3, 'three']] as const) {
      const { content } = entries[i]!;
      expect(content.startsWith(`${tag} start`)).toBe(true);
      expect(content.endsWith(`${tag} end`)).toBe(true);
      expect(content).toMatch(/\[\.\.\. \d+ characters cut \.\.\.\]/);
    }
    const notes = [...clipped.content.matchAll(NOTE)];
    expect(notes).toHaveLength(1);
    expect(Number(notes[0]![1])).toBe(clipped.before);
    expect(clipped.before).toBe(tasks.reduce((sum, t) => sum + t.result!.length, 0));
    expect(Number(notes[0]![2])).toBe(clipped.after);
    expect(clipped.after).toBeLessThan(clipped.before);
  });

  it('cut again, keeps one note that counts from the results as they came', () => {
    const once = clipPromptResults(prompt, 6_000)!;
    const twice = clipPromptResults(once.content, 3_000)!;
    expect(twice.after).toBeLessThan(once.after);
    expect(twice.before).toBe(once.before);
    const notes = [...twice.content.matchAll(NOTE)];
    expect(notes.map((n) => [Number(n[1]), Number(n[2])])).toEqual([[once.before, twice.after]]);
    expect(entriesOf(twice.content).map((e) => e.taskId)).toEqual(['task_0', 'task_1', 'task_2', 'task_3']);
  });

  it('leaves alone a prompt that fits, one without the block, and one that only looks like it', () => {
    expect(clipPromptResults(prompt, prompt.length)).toBeUndefined();
    expect(clipPromptResults(`what came back? ${'y'.repeat(10_000)}`, 1_000)).toBeUndefined();
    expect(clipPromptResults(`<background_task_results>\n<task_result>${'y'.repeat(10_000)}`, 1_000)).toBeUndefined();
    expect(clipPromptResults(`<background_task_results>\n${'y'.repeat(10_000)}\n\nno end`, 1_000)).toBeUndefined();
  });
});
