import type { Stats } from 'node:fs';
import { lstat, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse, sep } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';

/** The most links a way goes through: Linux's bound (`MAXSYMLINKS`), past which it answers ELOOP. */
export const MAX_LINKS = 40;

/** What {@link walkLinks} found on the way along a path. */
export interface LinkWalk {
  /** Every symbolic link met on the way, in order, by its path as reached (a link met twice is listed twice). */
  readonly links: readonly string[];
  /**
   * When the way goes round a loop (a link met again while the way through it is still being
   * followed) or through more than {@link MAX_LINKS} links: the links still being followed, each
   * leading to the next, from the first of them to the last one met (the one met again, for a
   * loop): `[a, b, c, b]` for `a -> b -> c -> b`. The walk stops there.
   */
  readonly loop?: readonly string[];
  /**
   * Where the way ends: the real path the path reaches (a missing name on the way taken as the
   * folder it is once put back); after a loop, the last link met.
   */
  readonly end: string;
}

/**
 * Walks `path` one name at a time from the root, as the system does, following every symbolic
 * link by its text (`readlink`, from the link's folder; `..` taken from where a link leads, not
 * by text), and answers the links met, the loop if any, and where the way ends: the one walk
 * of links for the real path of a folder (`realFolderPath`) and for naming the links of a loop
 * that blocks a way (`blockedWayError`), so both bound and name a loop alike.
 *
 * A name that does not exist is taken as the folder it is once put back (nothing there can be a
 * link yet) and the walk goes on: a later `..` leads back into existing folders, whose links are
 * followed again. A dangling link is followed by its text all the same.
 *
 * @throws the system's error when a name on the way cannot be read (not ENOENT), e.g. ENOTDIR
 * past a file.
 *
 * @example
 * ```ts
 * // .rxharness -> loop-a, loop-a -> loop-b, loop-b -> loop-a:
 * (await walkLinks('/repo/.rxharness/sessions')).loop; // ['/repo/.rxharness', '/repo/loop-a', '/repo/loop-b', '/repo/loop-a']
 * ```
 */
export async function walkLinks(path: string): Promise<LinkWalk> {
  // Not resolve(): it takes ".." by text, where the system takes it from where a link led.
  const absolute = isAbsolute(path) ? path : `${process.cwd()}${sep}${path}`;
  const { root } = parse(absolute);
  const fs = onceEach();
  let current = await fs.realpath(root);
  // The names still to walk, the next one last (pop and push, not shift and unshift: a link's
  // target of thousands of names would move every name left per name taken).
  const rest = names(absolute.slice(root.length)).reverse();
  const links: string[] = [];
  // The links whose targets are still being walked, each with how many names were left after it.
  const following: { link: string; after: number }[] = [];
  for (let name = rest.pop(); name !== undefined; name = rest.pop()) {
    // A link whose target's names are all walked is passed (before this name was taken, `rest` was one longer).
    while (following.length > 0 && following.at(-1)!.after >= rest.length + 1) following.pop();
    if (name === '..') {
      // A real path (missing names in it taken as folders): no link in it to go back through.
      current = dirname(current);
      continue;
    }
    const next = join(current, name);
    const entry = await fs.lstat(next);
    // Missing: the folder it is once put back. Walk on, not join() the rest: a later ".." leaves
    // it for existing folders, whose links the system follows then.
    if (entry === undefined) {
      current = next;
      continue;
    }
    if (!entry.isSymbolicLink()) {
      current = await fs.realpath(next); // as the system spells it (letter case)
      continue;
    }
    links.push(next);
    const again = following.some((link) => link.link === next);
    following.push({ link: next, after: rest.length });
    if (again || links.length > MAX_LINKS) return { links, loop: following.map(({ link }) => link), end: next };
    const target = await fs.readlink(next);
    if (isAbsolute(target)) current = await fs.realpath(parse(target).root);
    rest.push(...names(isAbsolute(target) ? target.slice(parse(target).root.length) : target).reverse());
  }
  return { links, end: current };
}

/**
 * The file-system look-ups of one walk, each made once per path: a target of `d/..` names
 * revisits the same few paths thousands of times (40 planted links of 4 KB such targets cost
 * 80,000 `lstat` and `realpath` calls, 4 s, per walk). Within one walk only: a later walk sees
 * the folder as it is then.
 */
function onceEach() {
  const lstats = new Map<string, Promise<Stats | undefined>>();
  const reals = new Map<string, Promise<string>>();
  const targets = new Map<string, Promise<string>>();
  const once = <T>(known: Map<string, Promise<T>>, key: string, look: (key: string) => Promise<T>): Promise<T> => {
    let found = known.get(key);
    if (found === undefined) known.set(key, (found = look(key)));
    return found;
  };
  return {
    /** The name's `lstat`; `undefined` when it does not exist. */
    lstat: (path: string) =>
      once(lstats, path, (key) =>
        lstat(key).catch((e: unknown) => {
          if (errnoOf(e) === 'ENOENT') return undefined;
          throw e;
        }),
      ),
    realpath: (path: string) => once(reals, path, (key) => realpath(key)),
    readlink: (path: string) => once(targets, path, (key) => readlink(key)),
  };
}

/** The names of a path, without empty ones and `.`. */
function names(path: string): string[] {
  return path.split(sep === '\\' ? /[\\/]/ : '/').filter((name) => name !== '' && name !== '.');
}
