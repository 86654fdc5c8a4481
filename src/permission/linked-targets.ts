/**
 * A bash write judged where it really lands: the line reader (`bash/writes/write-targets`) judges
 * a write at the path the line shows; when that path's existing part passes a symbolic link
 * (`frontend -> src`), the write is judged at the real path as well, and the stricter
 * decision holds. A real path inside the workspace is judged as the write tool's are
 * (`src/a.ts`); one outside it as an absolute path on the line is (that path, and each of its
 * tails); a way that cannot be followed (a loop, EACCES, a bound reached) as any path. A glob
 * or a part known only when the line runs is also expanded against the names on disk
 * (`linked-globs`), and each path it may name is followed.
 *
 * @module
 */
import { posix } from 'node:path';
import type { WriteTarget } from './bash/writes/write-targets.js';
import type { LinkWalker } from './link-walker.js';
import { globbedPaths } from './linked-globs.js';
import { quoted } from './quoted.js';

/** A write judged again at its real path. */
export interface LinkedTarget extends WriteTarget {
  /** What the write passes, for the reason: `leads to "src/a.ts" through a symbolic link`. */
  readonly through: string;
}

/** The deepest real path outside the workspace judged at each tail (as `write-targets` bounds an absolute path on the line). */
const MAX_TAIL_DEPTH = 32;

/**
 * `target` judged at its real path, or `undefined` when no link is on its way (or it names
 * no path: a write the line does not show is judged as any path already).
 *
 * @example
 * ```ts
 * // with frontend -> src in the workspace
 * linkedTarget({ written: 'frontend/a.ts', unseen: false, paths: ['frontend/a.ts'], shapes: [] }, walker);
 * // { written: 'frontend/a.ts', unseen: false, paths: ['src/a.ts'], shapes: [], through: 'leads to "src/a.ts" through a symbolic link' }
 * ```
 */
export function linkedTarget(target: WriteTarget, walker: LinkWalker): LinkedTarget | undefined {
  if (target.unseen) return undefined;
  const own = linkedOne(target, walker);
  if (target.paths.length > 0) return own;
  // A glob or a part known when it runs (`front*/a.ts`, `notes$x.md`, `$PWD/frontend/a.ts`): each
  // path it may name now is followed too; a quoted `'f[1]/a.ts'` is also read as written.
  const named = globbedPaths(target.written, walker);
  const { written } = target;
  if (named === undefined) return { written, unseen: false, paths: [], shapes: ['*'], through: 'names more paths on disk than can be looked at, so it may lead to any path' };
  const found = [own, ...[target.written, ...named].map((path) => linkedOne({ written: path, unseen: false, paths: [path], shapes: [] }, walker))].filter((f) => f !== undefined);
  if (found.length === 0) return undefined;
  return {
    written,
    unseen: false,
    paths: [...new Set(found.flatMap((f) => f.paths))],
    shapes: [...new Set(found.flatMap((f) => f.shapes))],
    through: found.find((f) => f.shapes.includes('*'))?.through ?? found[0]!.through,
  };
}

/** `target` judged at its real path: a path shown whole, or a glob up to its last folder before the glob. */
function linkedOne(target: WriteTarget, walker: LinkWalker): LinkedTarget | undefined {
  const whole = target.paths.length > 0;
  // A path shown whole is followed whole (its last name too: `>` writes through a link); a glob
  // (`out/*.ts`) up to its last folder before the glob; a part known only when it runs is judged
  // as any text from there on (`*.log`), wherever its folder leads.
  const known = whole ? target.written : literalFolder(target.written);
  if (known === undefined) return undefined;
  const found = walker.resolve(known);
  const { written } = target;
  if (found.kind === 'unknown') return { written, unseen: false, paths: [], shapes: ['*'], through: `passes a way that cannot be followed (${found.why}), so it may lead to any path` };
  if (!found.linked) return undefined;
  const root = walker.root();
  const rootPath = root.kind === 'real' ? root.path : undefined;
  const real = found.path;
  const inside = rootPath !== undefined && (real === rootPath || real.startsWith(rootPath === '/' ? '/' : `${rootPath}/`));
  const candidates = inside ? [posix.relative(rootPath!, real) || '.'] : real.split('/').length > MAX_TAIL_DEPTH ? undefined : [real, ...tails(real)];
  const shown = inside ? candidates![0]! : real;
  const through = `leads to ${quoted(shown)} through a symbolic link`;
  if (candidates === undefined) return { written, unseen: false, paths: [], shapes: ['*'], through };
  // A folder holding the workspace (a link to `/` or `..`) holds every path of it.
  const holdsAll = rootPath !== undefined && (real === '/' || rootPath.startsWith(`${real}/`) || real === rootPath);
  const lexical = posix.normalize(known).replace(/(.)\/+$/, '$1');
  const prefix = escape(lexical);
  const moved = (shape: string): string[] => {
    if (shape !== prefix && !shape.startsWith(`${prefix}/`)) return [];
    const rest = shape.slice(prefix.length);
    return candidates.map((c) => (rest.startsWith('/') && (c === '.' || holdsAll) ? '*' : `${escape(c)}${rest}`));
  };
  const shapes = [...new Set(target.shapes.flatMap(moved))];
  return { written, unseen: false, paths: whole ? candidates : [], shapes, through };
}

/** The folder part of a glob before its first wildcard (`out/*.ts`: `out`), or `undefined` when there is none or another part is known only when it runs. */
function literalFolder(written: string): string | undefined {
  // `$` also starts a substitution (the scanner leaves `$(…)` in its place).
  if (written.includes('$') || written.startsWith('~') || /\{[^{}]*(?:,|\.\.)[^{}]*\}/.test(written)) return undefined;
  const glob = /[*?[]/.exec(written)?.index;
  if (glob === undefined) return undefined;
  const folder = written.slice(0, written.lastIndexOf('/', glob) + 1);
  return folder === '' || folder === '/' ? undefined : folder;
}

/** `/a/b/c` may be `a/b/c`, `b/c` or `c` in a workspace somewhere above: judged as an absolute path on the line is. */
function tails(path: string): string[] {
  const segments = path.split('/').filter((s) => s !== '');
  return segments.map((_, i) => segments.slice(i).join('/'));
}

/** A path as a pattern matches it literally. */
function escape(path: string): string {
  return path.replace(/[\\{}*?[\]()!@+]/g, (c) => `\\${c}`);
}
