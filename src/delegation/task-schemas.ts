import type { JsonObject } from '../events/json.js';

const AGENT_NAME_TEXT = 'Name of the agent to run (one of the available agents).';
const prompt = {
  type: 'string',
  minLength: 1,
  description: 'The complete task for the agent. It sees nothing else: include goal, context, paths and what to return.',
};
const description = { type: 'string', minLength: 1, description: 'A short label for the task (3-8 words).' };

/** How many tasks one `multitask` call may hold unless the engine says otherwise. */
export const DEFAULT_MULTITASK_MAX_ITEMS = 200;

/** `agent_name`: any name (for checking arguments), or one of `names` (what the model is offered). */
function agentName(names?: readonly string[]): JsonObject {
  return names === undefined
    ? { type: 'string', minLength: 1, description: AGENT_NAME_TEXT }
    : { type: 'string', enum: [...names], description: AGENT_NAME_TEXT };
}

function taskSchema(names?: readonly string[]): JsonObject {
  return {
    type: 'object',
    properties: {
      agent_name: agentName(names),
      prompt,
      description,
      background: { type: 'boolean', description: 'Run detached and return at once; the result arrives with a later turn.' },
      task_id: { type: 'string', minLength: 1, description: 'Resume this earlier task (same agent) with its history.' },
    },
    required: ['agent_name', 'prompt', 'description'],
    additionalProperties: false,
  };
}

function multitaskSchema(maxItems: number, names?: readonly string[]): JsonObject {
  return {
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
            agent_name: agentName(names),
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
}

/**
 * Arguments of `task`, as they are checked: any agent name passes the schema, so an unknown
 * one gets the delegation's own error (which lists the agents) rather than a schema message.
 */
export const TASK_PARAMETERS: JsonObject = taskSchema();

const cache = new Map<string, JsonObject>();

/** One object per distinct schema, so validators compile once; bounded, oldest dropped first. */
function cached(key: string, make: () => JsonObject): JsonObject {
  let schema = cache.get(key);
  if (schema === undefined) {
    schema = make();
    cache.set(key, schema);
    if (cache.size > 256) cache.delete(cache.keys().next().value!);
  }
  return schema;
}

/**
 * Arguments of `multitask` as they are checked: at most `maxItems` tasks (a longer list fails
 * before anything starts), any agent name (one unknown agent fails only its own task).
 */
export function multitaskParameters(maxItems: number): JsonObject {
  return cached(`m${maxItems}`, () => multitaskSchema(maxItems));
}

/**
 * The `task` schema the model is offered: `agent_name` is an `enum` of the agents it may
 * name now, so a server that constrains tool calls by their schema (llama.cpp, vLLM) cannot
 * invent one. With no agent at all there is nothing to list and the plain schema is used.
 */
export function taskModelParameters(names: readonly string[]): JsonObject {
  return names.length === 0 ? TASK_PARAMETERS : cached(`t${names.join('\n')}`, () => taskSchema(names));
}

/** The `multitask` schema the model is offered: as {@link taskModelParameters}, per task. */
export function multitaskModelParameters(maxItems: number, names: readonly string[]): JsonObject {
  return names.length === 0 ? multitaskParameters(maxItems) : cached(`m${maxItems}\n${names.join('\n')}`, () => multitaskSchema(maxItems, names));
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
