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

/** Arguments of `multitask`. */
export const MULTITASK_PARAMETERS: JsonObject = {
  type: 'object',
  properties: {
    tasks: {
      type: 'array',
      minItems: 1,
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
