import type { Static } from 'typebox';
import type { JsonObject } from '../events/json.js';
import { schemaMemo } from '../tools/schema-memo.js';
import { jsonOf } from '../tools/tool-input.js';

// JSON schema literals, typed by TypeBox's `Static` (a type-only import): the TypeBox
// builders would load ~370 modules when the package is imported (test/packaging/import-cost.test.ts).

const AGENT_NAME_TEXT = 'Name of the agent to run (one of the available agents).';
const prompt = {
  type: 'string',
  minLength: 1,
  description: 'The complete task for the agent. It sees nothing else: include goal, context, paths and what to return.',
} as const;
const description = { type: 'string', minLength: 1, description: 'A short label for the task (3-8 words).' } as const;

/** How many tasks one `multitask` call may hold unless the engine says otherwise. */
export const DEFAULT_MULTITASK_MAX_ITEMS = 200;

/** `agent_name` as it is checked: any name. */
const ANY_AGENT = { type: 'string', minLength: 1, description: AGENT_NAME_TEXT } as const;

/** `agent_name` as the model is offered it: one of `names`. */
function oneOfAgents(names: readonly string[]) {
  return { type: 'string', enum: [...names], description: AGENT_NAME_TEXT } as const;
}

// Generic in `agent_name`, so the checked schemas' types (and `Static` of them) see only
// `ANY_AGENT`; the offered ones are only ever sent as JSON.
function taskSchema<A extends object>(agentName: A) {
  return {
    type: 'object',
    required: ['agent_name', 'prompt', 'description'],
    properties: {
      agent_name: agentName,
      prompt,
      description,
      background: { type: 'boolean', description: 'Run detached and return at once; the result arrives with a later turn.' },
      task_id: { type: 'string', minLength: 1, description: 'Resume this earlier task (same agent) with its history.' },
    },
    additionalProperties: false,
  } as const;
}

function multitaskSchema<A extends object>(maxItems: number, agentName: A) {
  const task = {
    type: 'object',
    required: ['agent_name', 'prompt', 'description'],
    properties: {
      index: { type: 'integer', minimum: 1, description: 'Position of the task, from 1; results are matched by it. Default: its place in the list (give every task an index, or none).' },
      agent_name: agentName,
      prompt,
      description,
    },
    additionalProperties: false,
  } as const;
  return {
    type: 'object',
    required: ['tasks'],
    properties: { tasks: { type: 'array', items: task, minItems: 1, maxItems, description: `The tasks, at most ${maxItems} in one call.` } },
    additionalProperties: false,
  } as const;
}

/**
 * Arguments of `task`, as they are checked: any agent name passes the schema, so an unknown
 * one gets the delegation's own error (which lists the agents) rather than a schema message.
 */
export const TASK_PARAMETERS = taskSchema(ANY_AGENT);

/**
 * Arguments of `task` as validated by its schema.
 *
 * @interface
 */
export type TaskArgs = Static<typeof TASK_PARAMETERS>;

/**
 * Arguments of `multitask` as validated by its schema.
 *
 * @interface
 */
export type MultitaskArgs = Static<MultitaskSchema>;

// One object per distinct schema (bounded, oldest dropped first), so each compiles once.
const multitaskInput = schemaMemo((maxItems: number) => multitaskSchema(maxItems, ANY_AGENT));
type MultitaskSchema = ReturnType<typeof multitaskInput>;
const offered = schemaMemo((key: string): JsonObject => {
  const [kind, bound, ...names] = key.split('\n');
  return jsonOf(kind === 't' ? taskSchema(oneOfAgents(names)) : multitaskSchema(Number(bound), oneOfAgents(names)));
});

/**
 * Arguments of `multitask` as they are checked: at most `maxItems` tasks (a longer list fails
 * before anything starts), any agent name (one unknown agent fails only its own task).
 */
export function multitaskParameters(maxItems: number): MultitaskSchema {
  return multitaskInput(maxItems);
}

/**
 * The `task` schema the model is offered: `agent_name` is an `enum` of the agents it may
 * name now, so a server that constrains tool calls by their schema (llama.cpp, vLLM) cannot
 * invent one. With no agent at all there is nothing to list and the plain schema is used.
 */
export function taskModelParameters(names: readonly string[]): JsonObject {
  return names.length === 0 ? jsonOf(TASK_PARAMETERS) : offered(['t', '', ...names].join('\n'));
}

/** The `multitask` schema the model is offered: as {@link taskModelParameters}, per task. */
export function multitaskModelParameters(maxItems: number, names: readonly string[]): JsonObject {
  return names.length === 0 ? jsonOf(multitaskParameters(maxItems)) : offered(['m', String(maxItems), ...names].join('\n'));
}
