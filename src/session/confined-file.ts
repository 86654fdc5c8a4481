import { constants, type Stats } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { lstat, mkdir, open, readlink, realpath, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { HARD_LINKED, NotRegularFileError, specialKind } from './not-regular-file-error.js';
import { UnsafeLinkError } from './unsafe-link-error.js';
import { errnoOf } from '../errors/errno-of.js';

/** A folder files must stay in, and how error messages name it. */
export interface ConfinedRoot {
  /** The folder, absolute (a link above it is fine: it is taken as it really is). */
  readonly path: string;
  /** How to name it in errors: `the workspace`, `the session folder`... */
  readonly label: string;
  /**
   * The real path of `path`, looked up once for the confined calls of one operation
   * ({@link withRealPath}); absent, each call looks it up. Never kept beyond the operation
   * (a root held by a store has none): a link on the way is judged against the place the
   * root really is then.
   */
  readonly real?: string;
}

/** Whether the last part of the path is a file (never a link) or a folder (a link inside is fine). */
export type PathKind = 'file' | 'folder';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/**
 * Every open is non-blocking: opening a FIFO to read waits for a writer (to write, for a
 * reader) for ever, a wait no later check could end. For a regular file, the only kind let
 * through, the flag changes nothing (reads and writes of regular files never wait for data).
 * No terminal planted as the file becomes the process's controlling terminal either.
 */
const OPEN_ALWAYS = NOFOLLOW | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const MAX_LINKS = 40;

/**
 * Checks the way from `root` to `path` (an absolute path below it, existing or not): every
 * symbolic link on it must lead to a place inside `root`, and a file must not be a link
 * at all (appending to a link would change whatever it points to). Answers what the walk
 * found under the last name (its `lstat`), so a caller judging the file too (a FIFO, a
 * folder...) need not look it up again; `undefined` when it, or a folder on the way, is not there.
 *
 * @throws {@link UnsafeLinkError} naming the first link that breaks the rule.
 *
 * @example
 * ```ts
 * await checkConfined({ path: workspace, label: 'the workspace' }, `${workspace}/.rxharness/sessions/s1.jsonl`, 'file');
 * ```
 */
export async function checkConfined(root: ConfinedRoot, path: string, kind: PathKind): Promise<Stats | undefined> {
  const real = root.real ?? (await realRoot(root));
  const parts = relative(root.path, path).split(sep).filter((part) => part !== '');
  let current = real;
  let shown = root.path;
  let stats: Stats | undefined;
  for (const [index, part] of parts.entries()) {
    const next = join(current, part);
    shown = join(shown, part);
    stats = await lstat(next).catch(() => undefined);
    if (stats === undefined) return undefined; // the rest does not exist yet: it would be made under `current`
    if (!stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    const target = await leadsTo(next, 0);
    const outside = !isWithin(real, target);
    if (outside || (kind === 'file' && index === parts.length - 1)) {
      throw new UnsafeLinkError(path, shown, target, root.path, root.label, outside);
    }
    current = target;
  }
  return stats;
}

/**
 * Makes the folder `dir` below `root` (and its parents) unless a link on the way leads
 * out of `root`; checked before, so nothing is made outside, and after, in case a link was
 * planted meanwhile.
 *
 * @throws {@link UnsafeLinkError} naming the link.
 */
export async function makeConfinedFolder(root: ConfinedRoot, dir: string): Promise<void> {
  const pinned = await withRealPath(root);
  await checkConfined(pinned, dir, 'folder');
  await mkdir(dir, { recursive: true });
  await checkConfined(pinned, dir, 'folder');
}

/**
 * Opens the file `file` below `root` with `flags` (`O_NOFOLLOW`, `O_NONBLOCK` and
 * `O_NOCTTY` are added) once the way to it is checked; on Linux the opened file is checked
 * again afterwards (the kernel names it in /proc/self/fd), so a link swapped in between the
 * check and the open is caught too. With `O_CREAT`, such a race can leave an empty file
 * behind the link, never content. Only a regular file is opened: a FIFO, a folder, a socket
 * or a device under the name is refused before the open and, if swapped in since, after it
 * (the handle's own stat), so no caller waits on a FIFO or reads a folder. Nor is a file
 * with other hard links: rxharness never makes one, and appending to it would write the
 * other name's file too, which may lie outside `root` (a planted `ln ~/.bashrc s.jsonl`).
 *
 * @throws {@link UnsafeLinkError} naming the link; {@link NotRegularFileError} naming what
 * the file is; file-system errors (`ENOENT`...) as they are.
 *
 * @example
 * ```ts
 * const handle = await openConfined(root, file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
 * ```
 */
export async function openConfined(root: ConfinedRoot, file: string, flags: number): Promise<FileHandle> {
  root = await withRealPath(root); // one look-up for the checks before and after the open
  // Before the open too: opening a device can have effects of its own (judged on the check's own lstat of the file).
  refuseSpecialStats(file, await checkConfined(root, file, 'file'));
  let handle: FileHandle;
  try {
    handle = await open(file, flags | OPEN_ALWAYS);
  } catch (error) {
    const code = errnoOf(error);
    // A link planted since the check: name it if it is still there. Something else swapped in
    // since (a FIFO without a reader gives ENXIO to a writer, a folder EISDIR): name it.
    if (code === 'ELOOP') refuseSpecialStats(file, await checkConfined(root, file, 'file'));
    else if (code !== 'ENOENT') await refuseSpecial(file);
    throw error;
  }
  const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (opened !== undefined && !isWithin(root.real ?? (await realRoot(root)), opened)) {
    await handle.close();
    await checkConfined(root, file, 'file');
    throw new UnsafeLinkError(file, dirname(file), dirname(opened), root.path, root.label, true);
  }
  const kind = await handle.stat().then(
    // Judged on the file opened, not the name: a hard link planted since the check is caught too.
    (stats) => specialKind(stats) ?? (stats.nlink > 1 ? HARD_LINKED : undefined),
    async (error: unknown) => {
      await handle.close();
      throw error;
    },
  );
  if (kind === undefined) return handle;
  await handle.close();
  throw new NotRegularFileError(file, kind);
}

/**
 * Writes `text` as the whole file `target` below `root`: to a fresh temporary file created
 * exclusively (a leftover or a planted link of that name cannot be written through), then
 * renamed over it, so the file is whole or as it was. A link planted as `target` is refused
 * before anything is written (a rename would replace it silently), and so is anything else
 * that is not a regular file (a FIFO, a folder...).
 *
 * @throws {@link UnsafeLinkError} naming the link; {@link NotRegularFileError} naming what
 * `target` is; file-system errors as they are.
 *
 * @example
 * ```ts
 * await writeConfinedFile(root, `${dir}/t1.task.json`, JSON.stringify(info));
 * ```
 */
export async function writeConfinedFile(root: ConfinedRoot, target: string, text: string): Promise<void> {
  root = await withRealPath(root); // one look-up for the three checks and the open
  // A folder in the way would fail the rename obscurely; anything else not a regular file is refused alike.
  refuseSpecialStats(target, await checkConfined(root, target, 'file'));
  const temporary = `${target}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  const handle = await openConfined(root, temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  try {
    await handle.writeFile(text);
    await handle.close();
    refuseSpecialStats(target, await checkConfined(root, target, 'file'));
    await rename(temporary, target);
  } catch (e) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw e;
  }
}

/**
 * `root` with its real path looked up now ({@link ConfinedRoot.real}), for the confined calls
 * of one operation: each call then walks the way from it instead of looking it up again (a
 * write made four lookups, a read two). Each exported function here pins its root so; a caller
 * making many calls in a row (a scan reading every task file) pins it once for all of them,
 * and drops it when the operation ends. A root already pinned is kept; one whose real path
 * cannot be found (not made yet) is left unpinned, each call looking again.
 *
 * @example
 * ```ts
 * const pinned = await withRealPath(folder.root);
 * for (const name of names) await folder.read(join(folder.dir, name), pinned);
 * ```
 */
export async function withRealPath(root: ConfinedRoot): Promise<ConfinedRoot> {
  if (root.real !== undefined) return root;
  const real = await realpath(root.path).catch(() => undefined);
  return real === undefined ? root : { ...root, real };
}

/**
 * Whether `path` is `root` or below it (both absolute).
 *
 * @example
 * ```ts
 * isWithin('/repo', '/repo/.rxharness'); // true
 * ```
 */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Throws when `file` is there but is neither a regular file nor a link (the confinement checks name a link). */
async function refuseSpecial(file: string): Promise<void> {
  refuseSpecialStats(file, await lstat(file).catch(() => undefined));
}

/** {@link refuseSpecial} judging `stats`, the file's `lstat` already made (by {@link checkConfined}); `undefined` when it is not there. */
function refuseSpecialStats(file: string, stats: Stats | undefined): void {
  const kind = stats && specialKind(stats);
  if (kind !== undefined) throw new NotRegularFileError(file, kind);
}

function realRoot(root: ConfinedRoot): Promise<string> {
  return realpath(root.path).catch(() => resolve(root.path));
}

/** Where a link leads: its real target, or for a dangling one where writing through it would create the target. */
async function leadsTo(link: string, hops: number): Promise<string> {
  const real = await realpath(link).catch(() => undefined);
  if (real !== undefined) return real;
  const target = resolve(dirname(link), await readlink(link));
  const parent = await realpath(dirname(target)).catch(() => undefined);
  if (parent === undefined || hops >= MAX_LINKS) return target;
  const candidate = join(parent, basename(target));
  const stats = await lstat(candidate).catch(() => undefined);
  return stats?.isSymbolicLink() ? leadsTo(candidate, hops + 1) : candidate;
}
