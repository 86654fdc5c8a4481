/**
 * Where the writes of a bash line land, as the `write` tool's rules see paths: relative to
 * the workspace (the folder bash runs in). Since the policy does not know the workspace's
 * own path, a path that leaves it may come back into it: an absolute path or one starting
 * with `..` is also judged at each of its tails (`/home/u/ws/src/a.ts` may be `src/a.ts`).
 * After a `cd` into a folder the line names plainly (`cd frontend`) a relative path written
 * after it is judged where it stands and under that folder. After another `cd` (or `git -C`,
 * `env -C`, `find -execdir`) relative paths are relative to a folder not known here, so each
 * is also read as any path ending in it: those written after it on the line, or all of them
 * when the line may run a write again after the `cd` (a loop, a function, `trap`: see
 * `CommandParts.repeats`), whatever the `cd` names. A part known only when the line runs
 * (`$F`, `$(…)`, `{a,b}`, `~`) may hold `../`, so from there on the path is read as a shape
 * (a command pattern: `out/$x.log` is `*.log`); a glob keeps what comes before it. A line
 * of more than {@link MAX_WRITE_TARGETS} writes, or a path outside the workspace deeper than
 * half that, is judged as writing any path: each write costs a pass over the rules.
 *
 * @module
 */
import { posix } from 'node:path';
import { commandParts } from '../command-parts.js';
import { commandShape } from '../command-shape.js';
import { repeatingSyntax } from '../shell-programs.js';
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
const caches = { ordered: new WeakMap<readonly CommandWrites[], readonly WriteTarget[]>(), joined: new WeakMap<readonly CommandWrites[], readonly WriteTarget[]>(), anywhere: new WeakMap<readonly CommandWrites[], readonly WriteTarget[]>() };

/**
 * The targets of every write of a line (its parts' `writes`, in the order they stand),
 * resolved once per line.
 *
 * @param line - the line itself (its `commandParts` are read too): with a loop, a function or a
 *   trap a `cd` moves every write, else only those after it.
 *
 * @example
 * ```ts
 * const line = 'cd x && echo a > b';
 * writeTargets(commandParts(line).writes!, line); // [{ written: 'b', paths: ['b'], shapes: ['*\/b'], unseen: false }]
 * ```
 */
export function writeTargets(writes: readonly CommandWrites[], line: string): readonly WriteTarget[] {
  const parts = commandParts(line);
  // The line's parts know about repeats inside `eval`, `sh -c` and quoted `trap` names; the raw test stays as a floor.
  const anywhere = parts.repeats === true || repeatingSyntax(line);
  const mode = anywhere ? 'anywhere' : movesFolderSearch(line, [...parts.commands, ...parts.variants]) ? 'ordered' : 'joined';
  let targets = caches[mode].get(writes);
  if (targets === undefined) caches[mode].set(writes, (targets = resolveAll(writes, anywhere, mode === 'joined')));
  return targets;
}

/** Builtins that set variables or shell options their arguments name: a name built at run time (`read $v`) may be any. */
const SETTERS = /^(?:read|mapfile|readarray|getopts|declare|typeset|local|export|readonly|shopt|eval)\s/;

/**
 * Whether the line may change where a plain `cd x` looks (bash tries `$CDPATH/x` first, and
 * with `shopt -s cdable_vars` the value of `$x`): then `cd x` may enter any folder. `parts`:
 * the line's commands, de-quoted, and their other spellings (the line itself among them).
 */
function movesFolderSearch(line: string, parts: readonly string[]): boolean {
  if (line.includes('${!')) return true; // an indirect `${!v:=...}` assigns a name held in a variable
  return parts.some((part) => {
    if (/CDPATH|BASHOPTS|cdable_vars/.test(part) || /^(?:source|\.)(?:\s|$)/.test(part) || /^printf\s(?:.*\s)?-v/.test(part)) return true;
    if (!SETTERS.test(part)) return false;
    // `declare -n r=$v` refers to any name; `export $v=x`, `shopt -s ${o}vars`, `eval "$a$b=x"` set one.
    return part.split(/\s+/).slice(1).some((word) => /^-[a-zA-Z]*n/.test(word) || word.split('=')[0]!.includes('$') || (part.startsWith('eval') && word.includes('$')));
  });
}

/** More folders than this that a line's plain `cd`s may have left it in: the folder is read as unknown. */
const MAX_BASES = 8;

function resolveAll(writes: readonly CommandWrites[], anywhere: boolean, join: boolean): WriteTarget[] {
  // Writes are in the order the line runs them (a substitution's after its statement's, which is
  // no earlier than it runs): a `cd` moves the writes after it, and itself (`git -C x`).
  let chdir = anywhere && writes.some((w) => w.chdir);
  // The folders a plain `cd x` may have left the line in. The workspace stays one of them: the
  // `cd` may fail, be conditional, or run in a subshell or pipeline (`(cd x)`, `cd x | y`).
  let bases = [''];
  const out: WriteTarget[] = [];
  const unseen = (written: string): WriteTarget => ({ written, unseen: true, paths: [], shapes: ['*'] });
  const count = writes.reduce((sum, w) => sum + w.files.length + w.joined.length, 0);
  if (count > MAX_WRITE_TARGETS) {
    return [...writes.flatMap((w) => (w.unseen === undefined ? [] : [unseen(w.unseen)])), unseen(`${count} writes (over ${MAX_WRITE_TARGETS}), judged as writing any path`)];
  }
  const push = (word: WrittenWord, tree: boolean): void => {
    for (const base of chdir ? [''] : bases) out.push(resolve(under(base, word), chdir, tree));
  };
  for (const w of writes) {
    // A plain `cd` moves what comes after it (its own redirections are opened before it runs).
    const into = join ? w.into : undefined;
    if (into === undefined) chdir ||= w.chdir;
    if (w.unseen !== undefined) out.push(unseen(w.unseen));
    for (const file of w.files) if (!NOT_FILES.test(file.text)) push(file, false);
    for (const { dir, name, tree, why } of w.joined) {
      // A command rewriting the working tree from data (`git checkout main`): any path.
      if (why !== undefined) {
        out.push(unseen(why));
        continue;
      }
      const base = baseName(name.text);
      // A source ending in `/` (rsync) puts what it holds into the folder: any name there.
      const text = base === '' ? dir.text : `${dir.text.replace(/\/+$/, '')}/${base}`;
      push({ text, glob: dir.glob || name.glob }, tree || base === '');
    }
    // Once the folder is unknown the bases are no longer read: growing them would cost each `cd` a pass over all (n³ for `cd a && ` × n).
    if (into !== undefined && !chdir) {
      bases = [...new Set([...bases, ...bases.map((b) => posix.join(b, into))])];
      chdir ||= bases.length > MAX_BASES;
    }
  }
  return out;
}

/** A written word as seen from the workspace when the line is in `base`; an absolute path or a `~` one is where it is. */
function under(base: string, word: WrittenWord): WrittenWord {
  if (base === '' || word.text.startsWith('/') || word.text.startsWith('~')) return word;
  return { ...word, text: `${base}/${word.text}` };
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
