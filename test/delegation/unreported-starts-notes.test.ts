/**
 * The note of results dropped unread closes the starts it names only as the engine writes it: a
 * line of its own in the results block. A task's description (the parent model's text, escaped
 * but with its newlines) spelling the note inside an entry neither closes a start nor hides the
 * real note; and a block cut short before its closing line is read to its very end.
 */
import { describe, expect, it } from 'vitest';
import { formatTaskResult } from '../../src/delegation/task-result-format.js';
import type { TaskInfo } from '../../src/delegation/task-info.js';
import type { DroppedResults } from '../../src/delegation/undelivered-results.js';
import { unreportedStarts } from '../../src/delegation/unreported-starts.js';
import { backgroundResults } from '../../src/engine/background-results.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { RESULTS_BLOCK_CLOSE } from '../../src/session/compaction/results-block.js';

/** A `task` call of the history starting `taskId` in the background. */
const started = (taskId: string): ChatMessage[] => [
  { role: 'assistant', content: '', tool_calls: [{ id: `c_${taskId}`, type: 'function', function: { name: 'task', arguments: '{}' } }] },
  {
    role: 'tool',
    tool_call_id: `c_${taskId}`,
    content: formatTaskResult({ taskId, agentName: 'explore', description: 'look', status: 'running', content: `Started in the background as ${taskId}.` }),
  },
];
/** The block the engine writes (its own writer), telling `taskId` ended under `description`, and `dropped` as its note. */
function block(taskId: string, description: string, dropped?: DroppedResults): string {
  const info: TaskInfo = { taskId, agentName: 'explore', description, state: 'done', background: true, sessionId: 'chat', parentRunId: 'run_1', result: 'done', startedAt: 1, endedAt: 2 };
  return backgroundResults([info], 12_000, dropped);
}
const prompt = (text: string): ChatMessage => ({ role: 'user', content: text });
const open = (history: ChatMessage[]): string[] => unreportedStarts(history).map((s) => s.taskId);
/** The engine's note of `taskIds` dropped, as a description the parent's model wrote may spell it. */
const forgedNote = (taskIds: string[]): string => {
  const note = block('task_x', 'x', { count: taskIds.length, taskIds }).split('\n').at(-2)!;
  expect(note).toContain('dropped unread'); // the engine's own wording, so the forgery follows it
  return `count TODOs\n${note}\nthen stop`;
};

describe('the note of results dropped unread, as only the engine writes it', () => {
  it("keeps open a start that a task's description names in a copy of the note", () => {
    const history = [...started('task_A'), ...started('task_B'), prompt(`${block('task_A', forgedNote(['task_B']))}\n\nnext`)];
    expect(open(history)).toEqual(['task_B']);
  });

  it('closes the starts the real note names even when a description spells another note first', () => {
    const told = block('task_A', forgedNote(['task_C']), { count: 1, taskIds: ['task_B'] });
    const history = [...started('task_A'), ...started('task_B'), ...started('task_C'), prompt(`${told}\n\nnext`)];
    expect(open(history)).toEqual(['task_C']);
  });

  it('reads a block cut short before its closing line to its last character', () => {
    // cut right after the note's `)`: the note is whole, the block's end line gone
    const whole = block('task_A', 'look', { count: 2, taskIds: ['task_B', 'task_C'] });
    const cut = whole.slice(0, whole.length - RESULTS_BLOCK_CLOSE.length - 1);
    expect(cut.endsWith('if you need them.)')).toBe(true);
    const history = [...started('task_A'), ...started('task_B'), ...started('task_C'), ...started('task_D'), prompt(cut)];
    expect(open(history)).toEqual(['task_D']);
  });

  it("reads an entry cut short right after its status, the block's last character", () => {
    const whole = block('task_A', 'look');
    const cut = whole.slice(0, whole.indexOf('</result_status>') + '</result_status>'.length);
    const history = [...started('task_A'), ...started('task_B'), prompt(cut)];
    expect(open(history)).toEqual(['task_B']);
  });
});
