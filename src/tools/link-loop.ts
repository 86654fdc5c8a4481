import { stat } from 'node:fs/promises';
import { errnoOf } from '../errors/errno-of.js';
import type { ToolResult } from './tool.js';
import { toolError } from './tool-error.js';

/**
 * The refusal for a file that could not be opened because it is a symbolic link loop
 * (`loop -> loop`, or `a -> b -> a`, itself or a folder on its way), or `undefined` when
 * `error` is anything else. Opening without following links fails alike (`ELOOP`, or
 * `EEXIST` for a create) for a link swapped in at the last moment, where trying again
 * helps; for a loop it never does, so the model is told so and to give another path.
 *
 * @param error - what opening `absolute` threw.
 * @param absolute - the real absolute path the tool opened.
 * @param path - the path as the model gave it.
 * @param undone - what the tool did not do: `read`, `written`, `changed`.
 *
 * @example
 * ```ts
 * const loop = await linkLoop(error, target.absolute, path, 'read');
 * if (loop) return loop;
 * ```
 */
export async function linkLoop(error: unknown, absolute: string, path: string, undone: string): Promise<ToolResult | undefined> {
  const code = errnoOf(error);
  if (code !== 'ELOOP' && code !== 'EEXIST') return undefined;
  try {
    await stat(absolute);
    return undefined; // it leads somewhere: a link swapped in, not a loop
  } catch (problem) {
    if (errnoOf(problem) !== 'ELOOP') return undefined;
  }
  return toolError(`${path} is a symbolic link loop (it, or a link on its way, leads back to itself), so nothing was ${undone}; give the path of a file instead`);
}
