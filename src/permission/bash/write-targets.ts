/**
 * Where the writes of a bash line land, as the `write` tool's rules see paths: relative to
 * the workspace (the folder bash runs in). Since the policy does not know the workspace's
 * own path, a path that leaves it may come back into it: an absolute path or one starting
 * with `..` is also judged at each of its tails (`/home/u/ws/src/a.ts` may be `src/a.ts`).
 * After a `cd` (or `git -C`, `env -C`) relative paths are relative to a folder not known
 * here, so each is also read as any path ending in it: those written after it on the line,
 * or all of them when the line may run a write again after the `cd` (a loop, a function). A part known only when the line runs
 * (`$F`, `$(…)`, `{a,b}`, `~`) may hold `../`, so from there on the path is read as a shape
 * (a command pattern: `out/$x.log` is `*.log`); a glob keeps what comes before it. A line
 * of more than {@link MAX_WRITE_TARGETS} writes, or a path outside the workspace deeper than
 * half that, is judged as writing any path: each write costs a pass over the rules.
 *
 * @module
 */
import { posix } from 'node:path';
import { commandShape } from './command-shape.js';
import type { CommandWrites, WrittenWord } from './written-words.js';

/** One write of a line, and where it is judged. */
export interface WriteTarget {
  /** What the line shows (`src/a.ts`, `$F`), or why it may write any path (`tar extracting an archive...`). */
  readonly written: string;
  /** True when the command writes paths the line does not show at all (`tar -x`, `git checkout main`). */
  readonly unseen: boolean;
  /** Paths to judge as the write tool's are (glob rules, path semantics). */
  readonly paths: readonly string[];
  /** Shapes to judge as free text: a deny or ask rule that some path of the shape could match holds. */
  readonly shapes: readonly string[];
}

/** What a command writes to when it writes to no file. */
const NOT_FILES = /^(?:-|\/dev\/(?:null|zero|stdout|stderr|tty|fd\/\d+))$/;
/** More writes than this on one line are judged as writing any path: each costs a resolution and a pass over the rules. */
export const MAX_WRITE_TARGETS = 64;
const caches = { ordered: new WeakMap<readonly CommandWrites[], readonly WriteTarget[]>(), anywhere: new WeakMap<readonly CommandWrites[], readonly WriteTarget[]>() };
/** Syntax that may run a command again, or later than it stands (a loop, a function): a `cd` then moves every write. */
const REPEATS = /(?:^|[\s;&|({`])(?:for|while|until|select|function|trap|coproc)(?=[\s;&|)}]|$)|\(\s*\)/;

/**
 * The targets of every write of a line (its parts' `writes`, in the order they stand),
 * resolved once per line.
 *
 * @param line - the line itself: with a loop or a function a `cd` moves every write, else only those after it.
 *
 * @example
 * ```ts
 * const line = 'cd x && echo a > b';
 * writeTargets(commandParts(line).writes!, line); // [{ written: 'b', paths: ['b'], shapes: ['*\/b'], unseen: false }]
 * ```
 */
export function writeTargets(writes: readonly CommandWrites[], line: string): readonly WriteTarget[] {
  const anywhere = REPEATS.test(line);
  const cache = anywhere ? caches.anywhere : caches.ordered;
  let targets = cache.get(writes);
  if (targets === undefined) cache.set(writes, (targets = resolveAll(writes, anywhere)));
  return targets;
}

function resolveAll(writes: readonly CommandWrites[], anywhere: boolean): WriteTarget[] {
  // Writes are in the order the line runs them (a substitution's after its statement's, which is
  // no earlier than it runs): a `cd` moves the writes after it, and itself (`git -C x`).
  let chdir = anywhere && writes.some((w) => w.chdir);
  const out: WriteTarget[] = [];
  const unseen = (written: string): WriteTarget => ({ written, unseen: true, paths: [], shapes: ['*'] });
  const count = writes.reduce((sum, w) => sum + w.files.length + w.joined.length, 0);
  if (count > MAX_WRITE_TARGETS) {
    return [...writes.flatMap((w) => (w.unseen === undefined ? [] : [unseen(w.unseen)])), unseen(`${count} writes (over ${MAX_WRITE_TARGETS}), judged as writing any path`)];
  }
  for (const w of writes) {
    chdir ||= w.chdir;
    if (w.unseen !== undefined) out.push(unseen(w.unseen));
    for (const file of w.files) if (!NOT_FILES.test(file.text)) out.push(resolve(file, chdir, false));
    for (const { dir, name, tree, why } of w.joined) {
      // A command rewriting the working tree from data (`git checkout main`): any path.
      if (why !== undefined) {
        out.push(unseen(why));
        continue;
      }
      const base = baseName(name.text);
      // A source ending in `/` (rsync) puts what it holds into the folder: any name there.
      const text = base === '' ? dir.text : `${dir.text.replace(/\/+$/, '')}/${base}`;
      out.push(resolve({ text, glob: dir.glob || name.glob }, chdir, tree || base === ''));
    }
  }
  return out;
}

/** Where one written path is judged; `tree`: a folder written with all it holds. */
function resolve(word: WrittenWord, chdir: boolean, tree: boolean): WriteTarget {
  // `{}` is what xargs or find puts there when the command runs.
  const text = word.text.replaceAll('{}', '$_');
  const shape = commandShape('', [{ text, glob: word.glob }]);
  let paths: string[] = [];
  let shapes: string[];
  if (shape !== undefined && !onlyGlob(word)) {
    // From the first run-time part on it may be any text, `../` included.
    shapes = [shape.slice(firstWildcard(shape))];
  } else {
    const normal = posix.normalize(shape ?? text).replace(/(.)\/+$/, '$1');
    const outside = normal.startsWith('/') || normal === '..' || normal.startsWith('../');
    // Each tail is judged against every rule: a path this deep is judged as any path instead.
    const deep = outside && normal.split('/').length > MAX_WRITE_TARGETS / 2;
    const candidates = deep ? ['*'] : outside ? [normal, ...tails(normal)] : [normal];
    if (shape === undefined && candidates[0] !== '*') {
      paths = candidates;
      shapes = !outside && chdir ? [`*/${escape(normal)}`] : [];
    } else shapes = !outside && chdir ? [...candidates, `*/${normal}`] : candidates;
  }
  // A folder holding the workspace (`/`, `..`: `ln -s / r` makes every path writable through `r`) holds any path.
  if (tree && (paths.includes('/') || /^\.\.(?:\/\.\.)*$/.test(paths[0] ?? ''))) shapes = [...shapes, '*'];
  if (tree) shapes = [...shapes, ...paths.map((p) => (p === '.' ? '*' : `${escape(p.replace(/\/$/, ''))}/*`)), ...shapes.map((s) => `${s.replace(/\/$/, '')}/*`)];
  return { written: word.text, unseen: false, paths, shapes };
}

/**
 * `/a/b/c` may be `a/b/c`, `b/c` or `c` in a workspace somewhere above; `../ws/x` may be
 * `ws/x` or `x`, and, climbing to the root (`../../../../etc/passwd`), `/ws/x` or `/x`.
 */
function tails(path: string): string[] {
  const segments = path.split('/').filter((s) => s !== '' && s !== '..');
  const within = segments.map((_, i) => segments.slice(i).join('/'));
  return path.startsWith('..') ? [...within, ...within.map((t) => `/${t}`)] : within;
}

/** The file or folder name a copy gives its source: `x/src` is `src`, `url?q` is the url's last segment, `x/` is none. */
function baseName(text: string): string {
  const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text.replace(/[?#].*$/s, '').replace(/^[^:]+:\/\/[^/]*/, '') : text;
  if (path.endsWith('/') || path === '.' || path === '..') return '';
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Where a shape's first wildcard is (an unescaped `*`, `?` or `[`). */
function firstWildcard(shape: string): number {
  for (let i = 0; i < shape.length; i += 1) {
    if (shape[i] === '\\') i += 1;
    else if (shape[i] === '*' || shape[i] === '?' || shape[i] === '[') return i;
  }
  return 0;
}

/** Whether a word's only run-time part is a glob: no `$`, substitution, brace expansion or `~`. */
function onlyGlob(word: WrittenWord): boolean {
  const glob = word.glob || /\[[^\]]+\]/.test(word.text);
  return glob && !word.text.includes('$') && !/\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(word.text) && !word.text.startsWith('~');
}

/** A path as a pattern matches it literally. */
function escape(path: string): string {
  return path.replace(/[\\{}*?[\]()!@+]/g, (c) => `\\${c}`);
}
