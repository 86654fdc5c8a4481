import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { toolError } from './tool-error.js';
import type { ToolResult } from './tool.js';

/**
 * Puts `text` in place of the open file's content, so that the file is never empty on the
 * way: the new bytes are written from the start, and only then is an old tail longer than
 * them cut off. A cancel is honoured before the first byte only: once the writing starts it
 * runs to the end (a write stopped half-way, or a cut before it, would leave a broken or
 * empty file behind, which is worse than a finished change).
 *
 * @example
 * ```ts
 * await replaceContent(handle, updated, context.signal);
 * ```
 */
export async function replaceContent(handle: FileHandle, text: string, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
    written += bytesWritten;
  }
  await handle.truncate(bytes.length);
}

/**
 * A refusal when the file has more names than one (`nlink > 1`): its other name may be a
 * file outside the workspace (pnpm installs a package's files as hard links to its store),
 * which the check of the path cannot see, and changing the file changes it there too.
 */
export function hardLinked(stats: Stats, path: string, tool: 'edit' | 'write'): ToolResult | undefined {
  if (stats.nlink <= 1) return undefined;
  return toolError(
    `${path} has ${stats.nlink} hard links: its other names may be files outside the workspace ` +
      `(pnpm installs a package's files as hard links to its store), so ${tool} does not change it; nothing was changed. ` +
      `To change this name only, make it a file of its own first (with bash: cp ${path} ${path}.copy && mv ${path}.copy ${path}), then ${tool} again.`,
  );
}
