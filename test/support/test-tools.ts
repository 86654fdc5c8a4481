import type { JsonObject } from '../../src/events/json.js';
import type { Tool, ToolContext } from '../../src/tools/tool.js';

/** `{ text: string }`, required, nothing else allowed. */
export const TEXT_PARAMETERS: JsonObject = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
};

/** Answers `echo: <text>`; each call's arguments and context are kept in `calls`. */
export function echoTool(name = 'echo'): Tool<{ text: string }> & { calls: { args: { text: string }; context: ToolContext }[] } {
  const calls: { args: { text: string }; context: ToolContext }[] = [];
  return {
    name,
    description: 'Repeats the text it is given.',
    parameters: TEXT_PARAMETERS,
    calls,
    execute: (args, context) => {
      calls.push({ args, context });
      return `echo: ${args.text}`;
    },
  };
}

/** Throws `message` whenever it runs. */
export function throwingTool(message: string, name = 'explode'): Tool {
  return {
    name,
    description: 'Always fails.',
    parameters: { type: 'object', properties: {} },
    execute: () => {
      throw new Error(message);
    },
  };
}
