import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';
import { InvalidWorkspaceError } from './invalid-workspace-error.js';

type WorkspaceProblem = ConstructorParameters<typeof InvalidWorkspaceError>[1];

/**
 * The workspace as an absolute path with symlinks resolved, so confinement checks compare
 * real paths.
 *
 * @throws InvalidWorkspaceError when it does not exist, is a symlink loop, cannot be read
 *   (a folder on the way denies access) or is not a folder.
 */
export function resolveWorkspace(workspace: string | undefined): string {
  const wanted = resolve(workspace ?? process.cwd());
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch (error) {
    throw new InvalidWorkspaceError(wanted, problemOf(errnoOf(error)));
  }
  if (!statSync(real).isDirectory()) {
    throw new InvalidWorkspaceError(wanted, 'is not a folder');
  }
  return real;
}

/**
 * What realpath's failure (its `code`) says of the path: a loop or a denied folder is not a
 * missing one.
 *
 * @internal
 */
export function problemOf(code: string | undefined): WorkspaceProblem {
  if (code === 'ELOOP') return 'is a symlink loop';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read';
  return 'does not exist';
}
