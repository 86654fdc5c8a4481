import { lstat, readlink, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { ConfinedRoot } from './confined-file.js';
import { errnoOf } from '../errors/errno-of.js';
import { walkLinks } from './link-walk.js';

/** The system's errors of a way that is blocked: a name on it no folder (`ENOTDIR`, `EEXIST` of a folder to make), or a link loop (`ELOOP`). */
const BLOCKED = new Set(['ENOTDIR', 'EEXIST', 'ELOOP']);

/**
 * The error to throw for `cause`, a system error met reaching the folder `folder` below
 * `root` (to remove or write a session file in it, or to make it): when the way to it is blocked (`ENOTDIR`, `ELOOP`, or
 * `EEXIST` making a folder), an Error naming the first name on the way that is no folder and
 * what to do about it: a symbolic link whose target is missing (a folder moved aside or
 * removed), a file or a link to one, or a link going round a loop (naming the links of the
 * loop). The bare system error named only the file it gave up on, and not which name to
 * mend. Any other error, or a way found clear, is `cause` itself. Nothing is changed: the
 * way is only read.
 *
 * @example
 * ```ts
 * await rm(file, { force: true }).catch(async (e: unknown) => { throw await blockedWayError(root, dirname(file), e); });
 * ```
 */
export async function blockedWayError(root: ConfinedRoot, folder: string, cause: unknown): Promise<unknown> {
  if (!BLOCKED.has(errnoOf(cause) ?? '')) return cause;
  const why = await blockingName(root.path, folder).catch(() => undefined);
  if (why === undefined) return cause;
  return new Error(
    `The session folder ${folder} cannot be reached: ${why.name} ${why.what}. ` +
      `Nothing in it was written or removed; ${why.todo}, then try again.`,
    { cause },
  );
}

/** The first name from `root` (itself included) to `folder` that is no folder, what it is, and what to do; none for a missing name (made on the way). */
async function blockingName(root: string, folder: string): Promise<{ name: string; what: string; todo: string } | undefined> {
  const names = relative(root, folder).split(sep).filter((name) => name !== '');
  let current = root;
  for (let index = -1; index < names.length; index++) {
    if (index >= 0) current = join(current, names[index]!);
    const found = await stat(current).then(
      (stats) => (stats.isDirectory() ? 'folder' : 'other'),
      (e: unknown) => errnoOf(e) ?? 'error',
    );
    if (found !== 'folder') return described(current, found);
  }
  return undefined;
}

/** What `name` is when reaching it (`stat`) found `found`: no folder, missing, or a loop. */
async function described(name: string, found: string): Promise<{ name: string; what: string; todo: string } | undefined> {
  const link = (await lstat(name).catch(() => undefined))?.isSymbolicLink() === true;
  const target = link ? resolve(dirname(name), await readlink(name)) : undefined;
  if (found === 'ELOOP') {
    return { name, what: `is a symbolic link going round a loop of symbolic links (${(await loopOf(name)).join(' -> ')})`, todo: 'remove that link, or make it lead to a real folder' };
  }
  if (found === 'other') {
    return link
      ? { name, what: `is a symbolic link to ${target}, which is not a folder`, todo: 'remove the link (or make it lead to the real folder)' }
      : { name, what: 'is a file, not a folder', todo: 'move that file away' };
  }
  if (found === 'ENOENT' && link) {
    return { name, what: `is a symbolic link to ${target}, which does not exist (moved aside or removed?)`, todo: 'put that folder back, or remove the link' };
  }
  return undefined;
}

/**
 * The links of the loop `link` goes round, from `link` itself, each leading to the next, up to
 * the one met again (or past the bound of links: `walkLinks`, the one walk of links, shared
 * with `realFolderPath`); just `link` when the walk finds none (the loop mended meanwhile).
 */
async function loopOf(link: string): Promise<readonly string[]> {
  const { loop } = await walkLinks(link);
  return loop === undefined ? [link] : loop.slice(Math.max(0, loop.indexOf(link)));
}
