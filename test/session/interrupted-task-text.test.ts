import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { INTERRUPTED_TOOL_RESULT } from '../../src/session/close-turn.js';
import { MAX_NAMED_TASKS, namingInterruptedTasks } from '../../src/session/interrupted-tasks.js';
import type { TaskSessionInfo } from '../../src/session/session-store.js';

const callOf = (name: string, id = 'call_0'): ChatMessage => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }] });
const cut: ChatMessage = { role: 'tool', tool_call_id: 'call_0', content: INTERRUPTED_TOOL_RESULT };
const task = (taskId: string, callId = 'call_0'): TaskSessionInfo => ({ taskId, agentName: 'alpha', description: 'd', ownerSessionId: 's1', parentSessionId: 's1', callId });

describe('namingInterruptedTasks', () => {
  it(`names at most ${MAX_NAMED_TASKS} tasks of a multitask, saying how many more`, () => {
    const infos = Array.from({ length: 25 }, (_, i) => task(`task_${String(i).padStart(2, '0')}`));
    const [result] = namingInterruptedTasks([{ role: 'user', content: 'go' }, callOf('multitask')], [cut], infos, 's1');
    const content = String(result!.content);
    expect(content).toContain('Its 25 tasks were interrupted');
    expect(content.match(/task_\d\d \(/g)).toHaveLength(MAX_NAMED_TASKS);
    expect(content.endsWith('task_19 (agent "alpha", "d"), and 5 more.')).toBe(true);
  });

  it('skips a task whose id the history already shows (a server reusing call ids across turns)', () => {
    const stored: ChatMessage[] = [
      { role: 'user', content: 'one' },
      callOf('task'),
      { role: 'tool', tool_call_id: 'call_0', content: '<task_result task_id="task_early">done</task_result>' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'two' },
      callOf('task'),
    ];
    const [early, late] = [task('task_early'), task('task_late')];
    expect(namingInterruptedTasks(stored, [cut], [early, late], 's1')[0]!.content).toContain('The task task_late (');
    expect(namingInterruptedTasks(stored, [cut], [early], 's1')[0]!.content).toBe(INTERRUPTED_TOOL_RESULT);
  });

  it('names only tasks started by this session (a nested task of the same conversation is not its parent call)', () => {
    const nested = { ...task('task_n'), parentSessionId: 'task_parent' };
    expect(namingInterruptedTasks([{ role: 'user', content: 'go' }, callOf('task')], [cut], [nested], 's1')[0]!.content).toBe(INTERRUPTED_TOOL_RESULT);
    expect(namingInterruptedTasks([{ role: 'user', content: 'go' }, callOf('task')], [cut], [nested], 'task_parent')[0]!.content).toContain('task_n');
  });

  it('leaves the result of a call that is no delegation as it is', () => {
    expect(namingInterruptedTasks([{ role: 'user', content: 'go' }, callOf('bash')], [cut], [task('task_x')], 's1')[0]!.content).toBe(INTERRUPTED_TOOL_RESULT);
  });
});
