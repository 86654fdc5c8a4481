/**
 * The built-in tools: read, write, edit, list, glob, grep, bash and todo.
 *
 * @module
 */
import type { Tool } from '../tool.js';
import { createBashTool } from './bash.js';
import { createEditTool } from './edit.js';
import { createGlobTool } from './glob.js';
import { createGrepTool } from './grep.js';
import { createListTool } from './list.js';
import { createReadTool } from './read.js';
import { createTodoTool } from './todo.js';
import { createWriteTool } from './write.js';

export { createBashTool, type BashArgs, type BashToolOptions } from './bash.js';
export { createEditTool, type EditArgs } from './edit.js';
export { createGlobTool, type GlobArgs, type GlobToolOptions } from './glob.js';
export { createGrepTool, type GrepArgs, type GrepToolOptions } from './grep.js';
export { createListTool, type ListArgs, type ListToolOptions } from './list.js';
export { createReadTool, type ReadArgs, type ReadToolOptions } from './read.js';
export { createTodoTool, renderPlan, type TodoArgs } from './todo.js';
export { createWriteTool, type WriteArgs } from './write.js';

/** The names of the built-in tools, in the order {@link createBuiltinTools} returns them. */
export const PUBLIC_TOOL_NAMES = ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo'] as const;

/** The name of a built-in tool. */
export type BuiltinToolName = (typeof PUBLIC_TOOL_NAMES)[number];

/**
 * Fresh instances of every built-in tool, with default limits.
 *
 * @example
 * ```ts
 * const tools = createBuiltinTools();
 * tools.map((tool) => tool.name); // ['read', 'write', 'edit', 'list', 'glob', 'grep', 'bash', 'todo']
 * ```
 */
export function createBuiltinTools(): Tool[] {
  return [
    createReadTool(),
    createWriteTool(),
    createEditTool(),
    createListTool(),
    createGlobTool(),
    createGrepTool(),
    createBashTool(),
    createTodoTool(),
  ];
}
