import { Type, type Static } from 'typebox';
import type { JsonObject } from '../events/json.js';
import { schemaMemo } from '../tools/schema-memo.js';
import { jsonOf } from '../tools/tool-input.js';

const AGENT_NAME_TEXT = 'Name of the agent to run (one of the available agents).';
const prompt = Type.String({
  minLength: 1,
  description: 'The complete task for the agent. It sees nothing else: include goal, context, paths and what to return.',
});
const description = Type.String({ minLength: 1, description: 'A short label for the task (3-8 words).' });

/** How many tasks one `multitask` call may hold unless the engine says otherwise. */
export const DEFAULT_MULTITASK_MAX_ITEMS = 200;

/** `agent_name`: any name (for checking arguments), or one of `names` (what the model is offered). */
function agentName(names?: readonly string[]) {
  return names === undefined
    ? Type.String({ minLength: 1, description: AGENT_NAME_TEXT })
    : Type.String({ enum: [...names], description: AGENT_NAME_TEXT });
}

function taskSchema(names?: readonly string[]) {
  return Type.Object(
    {
      agent_name: agentName(names),
      prompt,
      description,
      background: Type.Optional(Type.Boolean({ description: 'Run detached and return at once; the result arrives with a later turn.' })),
      task_id: Type.Optional(Type.String({ minLength: 1, description: 'Resume this earlier task (same agent) with its history.' })),
    },
    { additionalProperties: false },
  );
}

function multitaskSchema(maxItems: number, names?: readonly string[]) {
  const task = Type.Object(
    {
      index: Type.Integer({ minimum: 1, description: 'Position of the task, from 1; results are matched by it.' }),
      agent_name: agentName(names),
      prompt,
      description,
    },
    { additionalProperties: false },
  );
  return Type.Object(
    { tasks: Type.Array(task, { minItems: 1, maxItems, description: `The tasks, at most ${maxItems} in one call.` }) },
    { additionalProperties: false },
  );
}

/**
 * Arguments of `task`, as they are checked: any agent name passes the schema, so an unknown
 * one gets the delegation's own error (which lists the agents) rather than a schema message.
 */
export const TASK_PARAMETERS = taskSchema();

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
export type MultitaskArgs = Static<ReturnType<typeof multitaskSchema>>;

// One object per distinct schema (bounded, oldest dropped first), so each compiles once.
const multitaskInput = schemaMemo((maxItems: number) => multitaskSchema(maxItems));
const offered = schemaMemo((key: string): JsonObject => {
  const [kind, bound, ...names] = key.split('\n');
  return jsonOf(kind === 't' ? taskSchema(names) : multitaskSchema(Number(bound), names));
});

/**
 * Arguments of `multitask` as they are checked: at most `maxItems` tasks (a longer list fails
 * before anything starts), any agent name (one unknown agent fails only its own task).
 */
export function multitaskParameters(maxItems: number): ReturnType<typeof multitaskSchema> {
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
