import { errnoOf } from '../errors/errno-of.js';
import { errorMessage } from '../errors/error-message.js';

/**
 * Turns a Node file-system error into a sentence naming the path the model gave, so the
 * model reads `File not found: src/a.ts` rather than an `ENOENT` stack. `path` is put in as
 * given: callers give it as they show it, `shownName(path)`, so a line break or a bidi
 * override in it is escaped (`File not found: "no\nsuch"`) and a plain path reads as it is.
 *
 * @example
 * ```ts
 * fsErrorMessage(Object.assign(new Error('x'), { code: 'ENOENT' }), 'a.ts'); // 'File not found: a.ts'
 * ```
 */
export function fsErrorMessage(error: unknown, path: string): string {
  const code = errnoOf(error);
  switch (code) {
    case 'ENOENT':
      return `File not found: ${path}`;
    case 'ENOTDIR':
      return `Not found: ${path} (a part of the path is a file, not a folder)`;
    case 'EISDIR':
      return `${path} is a folder, not a file`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: ${path}`;
    case 'ELOOP':
      return `Too many symbolic links in ${path}`;
    default:
      return `Cannot access ${path}: ${errorMessage(error)}`;
  }
}
