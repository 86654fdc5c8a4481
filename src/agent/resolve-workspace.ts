import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidWorkspaceError } from './invalid-workspace-error.js';

/**
 * The workspace as an absolute path with symlinks resolved, so confinement checks compare
 * real paths.
 *
 * @throws InvalidWorkspaceError when it does not exist or is not a folder.
 */
export function resolveWorkspace(workspace: string | undefined): string {
  const wanted = resolve(workspace ?? process.cwd());
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch {
    throw new InvalidWorkspaceError(wanted, 'does not exist');
  }
  if (!statSync(real).isDirectory()) {
    throw new InvalidWorkspaceError(wanted, 'is not a folder');
  }
  return real;
}
