import { describe, expect, it } from 'vitest';
import type { TodoItem } from '../../src/events/agent-event.js';
import { createTodoTool, renderPlan } from '../../src/tools/builtin/todo.js';
import { createToolContext, runTool } from '../support/tool-context.js';

describe('todo tool', () => {
  const todo = createTodoTool();
  const todos: TodoItem[] = [
    { id: '1', content: 'Read the spec', status: 'completed' },
    { id: '2', content: 'Write the code', status: 'in_progress' },
    { id: '3', content: 'Ship it', status: 'pending' },
    { id: '4', content: 'Gold-plate', status: 'cancelled' },
  ];

  it('emits a Plan event for its run and renders the list', async () => {
    const context = createToolContext({ runId: 'run-7', agentName: 'planner' });
    const result = await runTool(todo, { todos }, context);
    expect(context.events).toEqual([{ type: 'Plan', runId: 'run-7', agentName: 'planner', todos }]);
    expect(result).toEqual({
      text: [
        'Plan (4 items: 1 completed, 1 in progress, 1 pending, 1 cancelled)',
        '[x] 1. Read the spec',
        '[~] 2. Write the code',
        '[ ] 3. Ship it',
        '[-] 4. Gold-plate',
      ].join('\n'),
    });
  });

  it('emits only the known fields of each item', async () => {
    const context = createToolContext();
    const extra = [{ id: 'a', content: 'x', status: 'pending', note: 'dropped' }] as unknown as TodoItem[];
    await runTool(todo, { todos: extra }, context);
    expect(context.events[0]).toMatchObject({ todos: [{ id: 'a', content: 'x', status: 'pending' }] });
    expect(JSON.stringify(context.events[0])).not.toContain('dropped');
  });

  it('clears the plan with an empty list', async () => {
    const context = createToolContext();
    expect(await runTool(todo, { todos: [] }, context)).toEqual({ text: 'Plan cleared (no items).' });
    expect(context.events).toEqual([{ type: 'Plan', runId: 'run-1', agentName: 'main', todos: [] }]);
  });

  it('refuses duplicate ids without emitting', async () => {
    const context = createToolContext();
    const result = await runTool(todo, { todos: [todos[0]!, { ...todos[1]!, id: '1' }] }, context);
    expect(result.error).toBe('todo ids must be unique: "1" appears more than once');
    expect(context.events).toEqual([]);
  });

  it('renders a single item in the singular', () => {
    expect(renderPlan([{ id: 'a', content: 'Ship', status: 'completed' }])).toBe('Plan (1 item: 1 completed)\n[x] a. Ship');
  });
});
