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

export { bashTool, createBashTool, type BashArgs, type BashToolOptions } from './bash.js';
export { createEditTool, editTool, type EditArgs } from './edit.js';
export { createGlobTool, globTool, type GlobArgs, type GlobToolOptions } from './glob.js';
export { createGrepTool, grepTool, type GrepArgs, type GrepToolOptions } from './grep.js';
export { createListTool, listTool, type ListArgs, type ListToolOptions } from './list.js';
export { createReadTool, readTool, type ReadArgs, type ReadToolOptions } from './read.js';
export { createTodoTool, renderPlan, todoTool, type TodoArgs } from './todo.js';
export { createWriteTool, writeTool, type WriteArgs } from './write.js';

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

/**
 * Resolves a definition's `tools` list against the tools available: `undefined`, an empty
 * list or `*` mean all of them. Names are trimmed and de-duplicated; the ones not available
 * are returned in `unknown`, for the caller to report.
 *
 * @example
 * ```ts
 * resolveToolNames(['read', 'grep', 'fly'], ['read', 'write', 'grep']);
 * // { names: ['read', 'grep'], unknown: ['fly'] }
 * resolveToolNames(undefined, ['read', 'write']); // { names: ['read', 'write'], unknown: [] }
 * ```
 */
export function resolveToolNames(
  names: readonly string[] | undefined,
  available: readonly string[],
): { names: string[]; unknown: string[] } {
  const wanted = [...new Set((names ?? []).map((name) => name.trim()).filter((name) => name !== ''))];
  const unknown = wanted.filter((name) => name !== '*' && !available.includes(name));
  if (wanted.length === 0 || wanted.includes('*')) return { names: [...new Set(available)], unknown };
  return { names: wanted.filter((name) => available.includes(name)), unknown };
}
