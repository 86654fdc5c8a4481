import { lstat, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { blockedWayError } from './blocked-way.js';
import { checkConfined, withRealPath, type ConfinedRoot } from './confined-file.js';
import { errnoOf } from '../errors/errno-of.js';

/** What {@link surveyConfinedFiles} found under a name: nothing, something to remove (a file, a link, a FIFO...), or a folder, left. */
export type FoundFile = 'absent' | 'present' | 'folder';

/**
 * Removes each of `files` below `root` (the folders on the way must stay inside; a link as
 * the file is removed itself, never its target; a file that is not there is no error). A
 * FIFO, socket or device under one of the names is removed like a file (unlinked, never
 * opened). A folder is left as it is, since its content is not the store's to judge, and
 * does not stop the others: the answer lists the folders left, for the caller to say so.
 * Every file's way is checked before any is removed, so a blocked one removes nothing
 * ({@link surveyConfinedFiles}, then {@link removeSurveyedFiles}).
 *
 * @throws `UnsafeLinkError` naming a link on the way; an Error naming what blocks the way
 * (`blockedWayError`: a link in a loop, a file or a dangling link where a folder should be),
 * where the system said only `ELOOP` or `ENOTDIR` of the file.
 *
 * @example
 * ```ts
 * const left = await removeConfinedFiles(root, [`${dir}/s1.jsonl`, `${dir}/s1.summary.json`]);
 * if (left[0] !== undefined) throw new NotRegularFileError(left[0], 'directory');
 * ```
 */
export async function removeConfinedFiles(root: ConfinedRoot, files: readonly string[]): Promise<string[]> {
  const pinned = await withRealPath(root); // one look-up of the root's real path for the whole removal
  return removeSurveyedFiles(pinned, files, await surveyConfinedFiles(pinned, files));
}

/**
 * Checks the way to each of `files` below `root` as {@link removeConfinedFiles} does, and
 * answers what each name holds, changing nothing: a caller with something to write before
 * the files go (a delete ending a conversation's lifetime) checks first, so that nothing is
 * written when the way is blocked. Each folder on the way is checked once, however many of
 * the files lie in it (a session's files share one: each checked alone cost a real path and
 * a look at every name on the way per file); a link under a file's name is checked alone.
 * The root's real path is looked up once for all of them (`withRealPath`).
 *
 * @throws as {@link removeConfinedFiles}.
 *
 * @example
 * ```ts
 * const found = await surveyConfinedFiles(root, files); // throws when the way is blocked
 * await recordTheDelete();
 * const left = await removeSurveyedFiles(root, files, found);
 * ```
 */
export async function surveyConfinedFiles(root: ConfinedRoot, files: readonly string[]): Promise<FoundFile[]> {
  root = await withRealPath(root);
  const checked = new Set<string>();
  const found: FoundFile[] = [];
  for (const file of files) {
    const folder = dirname(file);
    if (!checked.has(folder)) await checkConfined(root, folder, 'folder');
    checked.add(folder);
    const stats = await lstat(file).catch((e: unknown) => absent(root, file, e));
    // Its target must lie inside too, as for a link on the way (it is removed itself all the same).
    if (stats?.isSymbolicLink() === true) await checkConfined(root, file, 'folder');
    found.push(stats === undefined ? 'absent' : stats.isDirectory() ? 'folder' : 'present');
  }
  return found;
}

/**
 * Removes what {@link surveyConfinedFiles} found under `files` (`found`, one per file): each
 * name found with something in it but a folder; answers the folders, left. A name found
 * empty is not touched: the caller holds the session's write queue, so nothing of the store
 * was written there since.
 *
 * @throws an Error naming what blocks the way (`blockedWayError`) when it was blocked since.
 */
export async function removeSurveyedFiles(root: ConfinedRoot, files: readonly string[], found: readonly FoundFile[]): Promise<string[]> {
  const left: string[] = [];
  for (const [index, file] of files.entries()) {
    if (found[index] === 'folder') left.push(file);
    else if (found[index] === 'present') await rm(file, { force: true }).catch(async (e: unknown) => Promise.reject(await blockedWayError(root, dirname(file), e)));
  }
  return left;
}

/** A file not there is no error (`undefined`); a way that cannot be gone (a loop, a file on it) is, named. */
async function absent(root: ConfinedRoot, file: string, error: unknown): Promise<undefined> {
  if (errnoOf(error) === 'ENOENT') return undefined;
  throw await blockedWayError(root, dirname(file), error);
}
