/**
 * Where a path a bash line names really leads, read from the file system when the line is
 * decided: a symbolic link already in the workspace (`frontend -> src`, planted by a cloned
 * repository or an earlier command) makes `echo x > frontend/a.ts` write `src/a.ts`. The
 * line reader (`bash/`) reads text only; this is the one place the permission layer looks
 * at the disk, and only for what a decision needs.
 *
 * @module
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { posix, resolve } from 'node:path';
import { errnoOf } from '../errors/errno-of.js';

/** Where a path leads: its real absolute path, or why that could not be found. */
export type LinkedPath =
  | {
      readonly kind: 'real';
      /** The absolute path after every link on the way (the last name's too); a part that does not exist yet is kept as written. */
      readonly path: string;
      /** Whether a symbolic link was followed on the way (below the workspace, for a relative path). */
      readonly linked: boolean;
    }
  | { readonly kind: 'unknown'; readonly why: string };

/** Links one path may pass, as Linux counts them (past this `open` fails with ELOOP). */
export const MAX_LINKS_PER_PATH = 40;
/** Names looked at in one decision, over all its paths: a line of 64 writes of deep paths stays far below it. */
export const MAX_STEPS = 8192;
/** Links followed in one decision, over all its paths: a 10,000-link chain costs no more than this. */
export const MAX_LINKS = 512;

/** A name in a folder, and what it is (a link is not followed here). */
export interface ListedName {
  readonly name: string;
  readonly link: boolean;
  readonly dir: boolean;
}

/** Another process's view (`/proc/self/cwd` is this process's folder, not the shell's): where it leads is not known here. */
const PROCESS_VIEW = /^\/proc\/(?:self|thread-self|\d+)(?:\/|$)/;

/** What one name on the way is: cached for the decision, so a folder shared by many writes is looked at once. */
type Entry = { readonly kind: 'dir' | 'file' | 'missing' } | { readonly kind: 'link'; readonly target: string } | { readonly kind: 'error'; readonly code: string };

/**
 * Follows paths through the symbolic links on their way, as the kernel does when the line
 * runs: `..` after a link climbs from where the link leads, a relative link target is read
 * from the link's folder, a dangling link leads to where it would create its target. One
 * walker serves one decision (its cache must not outlive it: links change between calls),
 * and its work is bounded ({@link MAX_STEPS}, {@link MAX_LINKS}): past a bound, or on an
 * error other than a missing name (EACCES, ELOOP...), the answer is `unknown`.
 * It never throws.
 *
 * @example
 * ```ts
 * // with /ws/frontend -> src
 * new LinkWalker('/ws').resolve('frontend/a.ts'); // { kind: 'real', path: '/ws/src/a.ts', linked: true }
 * ```
 */
export class LinkWalker {
  /** The workspace as given: relative paths are read from it. */
  readonly workspace: string;
  readonly #entries = new Map<string, Entry>();
  readonly #found = new Map<string, LinkedPath>();
  #root: LinkedPath | undefined;
  #steps = 0;
  #links = 0;

  constructor(workspace: string) {
    this.workspace = resolve(workspace);
  }

  /** Names looked at so far (for tests: the work stays bounded). */
  get steps(): number {
    return this.#steps;
  }

  /** The workspace's own real path (it may be reached through a link itself, `/tmp` on macOS). */
  root(): LinkedPath {
    this.#root ??= this.#walk('/', this.workspace);
    return this.#root;
  }

  /** Where `path` (relative to the workspace, or absolute) leads when the line runs. */
  resolve(path: string): LinkedPath {
    let found = this.#found.get(path);
    if (found === undefined) {
      const root = this.root();
      found = path.startsWith('/') ? this.#walk('/', path) : root.kind === 'real' ? this.#walk(root.path, path) : root;
      this.#found.set(path, found);
    }
    return found;
  }

  /**
   * The entries of the folder `path` (absolute; links on the way are followed, as a glob does),
   * or `undefined` past the bound or when it cannot be read. A listing costs a step and one
   * more per 32 names (matching a name is cheaper than looking at one).
   */
  list(path: string): readonly ListedName[] | undefined {
    if (PROCESS_VIEW.test(path)) return undefined;
    try {
      const found = readdirSync(path, { withFileTypes: true });
      this.#steps += 1 + Math.ceil(found.length / 32);
      return this.#steps > MAX_STEPS ? undefined : found.map((d) => ({ name: d.name, link: d.isSymbolicLink(), dir: d.isDirectory() }));
    } catch (error) {
      const code = errnoOf(error);
      return code === 'ENOENT' || code === 'ENOTDIR' ? [] : undefined;
    }
  }

  #walk(start: string, path: string): LinkedPath {
    let current = start;
    let linked = false;
    let links = 0;
    // Names below one that is not there yet (made earlier on the line, `mkdir -p newd && ... newd/../x`): not looked at.
    let ghosts = 0;
    // The names still to walk, the next one last: a link's target goes on top of the rest.
    const todo = names(path);
    while (todo.length > 0) {
      if (++this.#steps > MAX_STEPS) return { kind: 'unknown', why: `more than ${MAX_STEPS} names to look at in one command line` };
      const name = todo.pop()!;
      if (name === '..') {
        current = posix.dirname(current);
        if (ghosts > 0) ghosts -= 1;
        continue;
      }
      const next = posix.join(current, name);
      if (PROCESS_VIEW.test(next)) return { kind: 'unknown', why: `${next} is seen differently by the shell that runs the line` };
      if (ghosts > 0) {
        ghosts += 1;
        current = next;
        continue;
      }
      const entry = this.#entry(next, name);
      if (entry.kind === 'dir') current = next;
      else if (entry.kind === 'link') {
        if (++links > MAX_LINKS_PER_PATH) return { kind: 'unknown', why: `more than ${MAX_LINKS_PER_PATH} symbolic links on the way (a loop?)` };
        if (++this.#links > MAX_LINKS) return { kind: 'unknown', why: `more than ${MAX_LINKS} symbolic links to follow in one command line` };
        linked = true;
        todo.push(...names(entry.target));
        if (entry.target.startsWith('/')) current = '/';
      } else if (entry.kind === 'error') return { kind: 'unknown', why: `${next} cannot be looked at (${entry.code})` };
      // A name not there yet that `..` climbs out of later is a folder the line makes first: walk on past it.
      else if (entry.kind === 'missing' && todo.includes('..')) {
        ghosts = 1;
        current = next;
      }
      // A name that is not there yet is created as written, and the rest under it; past a file the write fails.
      else return { kind: 'real', path: posix.join(next, ...todo.reverse()), linked };
    }
    return { kind: 'real', path: current, linked };
  }

  #entry(path: string, name: string): Entry {
    let entry = this.#entries.get(path);
    if (entry === undefined) {
      entry = look(path, name);
      this.#entries.set(path, entry);
    }
    return entry;
  }
}

/** A path's names in reverse order (the first one last), without empty ones and `.`. */
function names(path: string): string[] {
  return path
    .split('/')
    .filter((name) => name !== '' && name !== '.')
    .reverse();
}

/** What is at `path` now, without following a link there. */
function look(path: string, name: string): Entry {
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return { kind: 'missing' };
    if (stats.isSymbolicLink()) return { kind: 'link', target: readlinkSync(path, 'utf8') };
    return { kind: stats.isDirectory() ? 'dir' : 'file' };
  } catch (error) {
    const code = errnoOf(error) ?? 'an unknown error';
    // A name longer than a file system takes cannot be there, and cannot be made: no link hides behind it.
    if (code === 'ENOENT' || code === 'ENOTDIR' || (code === 'ENAMETOOLONG' && Buffer.byteLength(name) > 255)) return { kind: 'missing' };
    return { kind: 'error', code };
  }
}
