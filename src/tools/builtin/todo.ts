import type { TodoItem } from '../../events/agent-event.js';
import { defineTool } from '../define-tool.js';
import type { Tool } from '../tool.js';
import { toolError } from '../tool-error.js';

const STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const satisfies readonly TodoItem['status'][];

// A JSON schema literal, typed by TypeBox's `Static` (a type-only import): the TypeBox
// builders would load ~370 modules when the package is imported (test/packaging/import-cost.test.ts).
const TODO_INPUT = {
  type: 'object',
  required: ['todos'],
  properties: {
    todos: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'content', 'status'],
        properties: {
          /** The model's id for the item, unique within the plan and kept across updates. */
          id: { type: 'string', minLength: 1, description: 'A stable id for the item.' },
          /** What to do, in the model's words. */
          content: { type: 'string', minLength: 1, description: 'What to do.' },
          /** Where the item stands. */
          status: { enum: STATUSES, type: 'string' },
        },
        additionalProperties: false,
      },
      description: 'The complete plan, in order.',
    },
  },
  additionalProperties: false,
} as const;

/**
 * Arguments of the `todo` tool: the plan, as the {@link TodoItem}s it becomes. (Named rather
 * than read from the schema by `Static`, whose nested items the API docs could not document;
 * `createTodoTool` returns `Tool<TodoArgs>` from the schema's own type, so the compiler
 * still holds the two together.)
 */
export type TodoArgs = {
  /** The complete plan, in order; it replaces the previous one. Ids must be unique. */
  todos: TodoItem[];
};

const MARK: Readonly<Record<TodoItem['status'], string>> = {
  pending: '[ ]',
  in_progress: '[~]',
  completed: '[x]',
  cancelled: '[-]',
};

/**
 * Creates the `todo` tool: replaces the agent's plan with the given list, emits a `Plan`
 * event with it and answers a short rendering of the list.
 *
 * @example
 * ```ts
 * await createTodoTool().execute(
 *   { todos: [{ id: '1', content: 'Read the spec', status: 'in_progress' }] },
 *   context,
 * ); // { text: 'Plan (1 item: 1 in progress)\n[~] 1. Read the spec' }
 * ```
 */
export function createTodoTool(): Tool<TodoArgs> {
  return defineTool({
    name: 'todo',
    description:
      'Writes your plan for a multi-step job as a todo list, replacing the previous list. Send the ' +
      'whole list each time; keep one item in_progress and mark items completed as soon as they are done.',
    input: TODO_INPUT,
    execute({ todos }, context) {
      const seen = new Set<string>();
      for (const item of todos) {
        if (seen.has(item.id)) return toolError(`todo ids must be unique: "${item.id}" appears more than once`);
        seen.add(item.id);
      }
      const plan = todos.map(({ id, content, status }) => ({ id, content, status }));
      context.emit({ type: 'Plan', runId: context.runId, agentName: context.agentName, todos: plan });
      return { text: renderPlan(plan) };
    },
  });
}

/**
 * A plan as short text: a summary line, then one line per item with a status mark
 * (`[ ]` pending, `[~]` in progress, `[x]` completed, `[-]` cancelled).
 *
 * @example
 * ```ts
 * renderPlan([{ id: 'a', content: 'Ship', status: 'completed' }]); // 'Plan (1 item: 1 completed)\n[x] a. Ship'
 * ```
 */
export function renderPlan(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return 'Plan cleared (no items).';
  const counts = new Map<TodoItem['status'], number>();
  for (const item of todos) counts.set(item.status, (counts.get(item.status) ?? 0) + 1);
  const summary = (['completed', 'in_progress', 'pending', 'cancelled'] as const)
    .filter((status) => counts.has(status))
    .map((status) => `${counts.get(status)} ${status.replace('_', ' ')}`)
    .join(', ');
  const lines = todos.map((item) => `${MARK[item.status]} ${item.id}. ${item.content}`);
  return [`Plan (${todos.length} item${todos.length === 1 ? '' : 's'}: ${summary})`, ...lines].join('\n');
}
