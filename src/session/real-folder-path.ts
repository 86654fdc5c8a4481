import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse, sep } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';

/** The most links a path may go through: Linux's bound (`MAXSYMLINKS`), past which it answers ELOOP too. */
const MAX_LINKS = 40;

/**
 * The real path a folder has, or, while it is missing (moved aside, removed), the one it has
 * once put back: the path the system reaches then. A delete keys the conversation's lifetime
 * by it, and every seal binds the folder's real path, so a sessions folder moved aside during
 * the delete and put back still finds the lifetime ended.
 *
 * While missing, the path is followed one name at a time from the root, as the system does:
 * a symbolic link on the way, dangling because its target (or a folder on the way to it) is
 * moved aside, is followed by its text (`readlink`, from the link's folder, `..` taken from
 * where the link leads), so the key is the folder the link leads to once its target is put
 * back, where the files' seals hold, and not the link's own path (the delete would end a
 * lifetime no read ever uses). A name that does not exist at all is taken as the folder it is
 * once put back (nothing there can be a link yet) and the walk goes on: a `..` after it leads
 * back into existing folders, whose links are followed again (`gone/../hop`, with `gone` moved
 * aside, reaches where the link `hop` leads, as the system does once `gone` is back).
 *
 * What it cannot know is a link that changes: a link retargeted, removed or moved aside
 * (before or after the delete) makes the path reach another real place; the files found there
 * are other files for every seal (each binds the real path it was written under), with a
 * lifetime of their own. A delete ends the lifetime of the place its path reaches then.
 *
 * @throws Error naming a link, when the path goes through more than 40 links (a loop).
 * @throws the system's error when a folder on the way cannot be read (not ENOENT).
 *
 * @example
 * ```ts
 * // .rxharness -> elsewhere, with elsewhere moved aside:
 * await realFolderPath('/repo/.rxharness/sessions'); // '/repo/elsewhere/sessions'
 * ```
 */
export async function realFolderPath(dir: string): Promise<string> {
  try {
    return await realpath(dir);
  } catch (e) {
    // ELOOP too: following it here names a link of the loop.
    if (errnoOf(e) !== 'ENOENT' && errnoOf(e) !== 'ELOOP') throw e;
  }
  return followedPath(dir);
}

/** {@link realFolderPath} for a path the system cannot resolve: its names followed one by one. */
async function followedPath(dir: string): Promise<string> {
  // Not resolve(): it takes ".." by text, where the system takes it from where a link led.
  const absolute = isAbsolute(dir) ? dir : `${process.cwd()}${sep}${dir}`;
  const { root } = parse(absolute);
  let current = await realpath(root);
  const rest = names(absolute.slice(root.length));
  let links = 0;
  for (let name = rest.shift(); name !== undefined; name = rest.shift()) {
    if (name === '..') {
      // A real path (missing names in it taken as folders): no link in it to go back through.
      current = dirname(current);
      continue;
    }
    const next = join(current, name);
    const entry = await lstat(next).catch((e: unknown) => {
      if (errnoOf(e) === 'ENOENT') return undefined;
      throw e;
    });
    // Missing: the folder it is once put back. Walk on, not join() the rest: a later ".." leaves
    // it for existing folders, whose links the system follows then.
    if (entry === undefined) {
      current = next;
      continue;
    }
    if (!entry.isSymbolicLink()) {
      current = await realpath(next); // as the system spells it (letter case)
      continue;
    }
    if (++links > MAX_LINKS) throw loopError(dir, next);
    const target = await readlink(next);
    if (isAbsolute(target)) current = await realpath(parse(target).root);
    rest.unshift(...names(isAbsolute(target) ? target.slice(parse(target).root.length) : target));
  }
  return current;
}

/** The names of a path, without empty ones and `.`. */
function names(path: string): string[] {
  return path.split(sep === '\\' ? /[\\/]/ : '/').filter((name) => name !== '' && name !== '.');
}

/** The error of a path through too many links, naming one of them and what to do. */
function loopError(dir: string, link: string): Error {
  return new Error(
    `the session folder ${dir} cannot be reached: its path goes through more than ${MAX_LINKS} symbolic links ` +
      `(a loop, through ${link}): mend or remove that link, then try again`,
  );
}
