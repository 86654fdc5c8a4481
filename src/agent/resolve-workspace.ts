import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The workspace as an absolute path with symlinks resolved, so confinement checks compare
 * real paths. Throws a clear error when it does not exist or is not a folder.
 */
export function resolveWorkspace(workspace: string | undefined): string {
  const wanted = resolve(workspace ?? process.cwd());
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch {
    throw new Error(`The workspace "${wanted}" does not exist; pass an existing folder as \`workspace\``);
  }
  if (!statSync(real).isDirectory()) {
    throw new Error(`The workspace "${wanted}" is not a folder; pass a folder as \`workspace\``);
  }
  return real;
}
