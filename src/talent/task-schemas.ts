import type { JsonObject } from '../events/json.js';

const agentName = { type: 'string', minLength: 1, description: 'Name of the agent to run (one of the available agents).' };
const prompt = {
  type: 'string',
  minLength: 1,
  description: 'The complete task for the agent. It sees nothing else: include goal, context, paths and what to return.',
};
const description = { type: 'string', minLength: 1, description: 'A short label for the task (3-8 words).' };

/** Arguments of `task`. */
export const TASK_PARAMETERS: JsonObject = {
  type: 'object',
  properties: {
    agent_name: agentName,
    prompt,
    description,
    background: { type: 'boolean', description: 'Run detached and return at once; the result arrives with a later turn.' },
    task_id: { type: 'string', minLength: 1, description: 'Resume this earlier task (same agent) with its history.' },
  },
  required: ['agent_name', 'prompt', 'description'],
  additionalProperties: false,
};

/** How many tasks one `multitask` call may hold unless the engine says otherwise. */
export const DEFAULT_MULTITASK_MAX_ITEMS = 200;

const multitaskSchemas = new Map<number, JsonObject>();

/**
 * Arguments of `multitask`, with at most `maxItems` tasks (the model reads the bound in the
 * schema; a longer list fails validation before anything starts). One schema object per
 * bound, so its validator is compiled once.
 */
export function multitaskParameters(maxItems: number): JsonObject {
  let schema = multitaskSchemas.get(maxItems);
  if (schema) return schema;
  schema = {
    type: 'object',
    properties: {
      tasks: {
        type: 'array',
        minItems: 1,
        maxItems,
        description: `The tasks, at most ${maxItems} in one call.`,
        items: {
          type: 'object',
          properties: {
            index: { type: 'integer', minimum: 1, description: 'Position of the task, from 1; results are matched by it.' },
            agent_name: agentName,
            prompt,
            description,
          },
          required: ['index', 'agent_name', 'prompt', 'description'],
          additionalProperties: false,
        },
      },
    },
    required: ['tasks'],
    additionalProperties: false,
  };
  multitaskSchemas.set(maxItems, schema);
  return schema;
}

/** Arguments of `task` as validated by its schema. */
export type TaskArgs = {
  agent_name: string;
  prompt: string;
  description: string;
  background?: boolean;
  task_id?: string;
};

/** Arguments of `multitask` as validated by its schema. */
export type MultitaskArgs = {
  tasks: { index: number; agent_name: string; prompt: string; description: string }[];
};
