/**
 * A sandbox for fuzzing workspace confinement: a workspace full of symlinks that lead out
 * (directly, through chains, absolute targets, dangling ones, loops) and back in, sentinel
 * files outside it, a `fast-check` arbitrary of hostile path strings, and an oracle that says
 * where a path really leads, computed independently of `resolveWorkspacePath`.
 *
 * @module
 */
import fc from 'fast-check';
import { lstatSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeSandbox, type Sandbox } from './approval-kit.js';

/** What sentinel files hold: a read that returns it escaped the workspace. */
export const SENTINEL = 'SENTINEL-c0nf1ned';

/** What the workspace's own files hold. */
export const INSIDE = 'INSIDE-OK';

/** The sandbox, plus the files a read inside the workspace may return. */
export interface ConfinementSandbox extends Sandbox {
  /** Real paths of the workspace files holding {@link INSIDE}. */
  readonly insideFiles: readonly string[];
}

/** Names a generated path is built from: everything the sandbox holds, and traps. */
const SEGMENTS = [
  '..', '.', '', 'sub', 'inner.txt', 'file.txt', 'secret.txt', 'link-out', 'link-secret', 'link-in', 'up', 'dangling',
  'dangling-file', 'abs-out', 'loop1', 'chain', 'back', 'self', 'ws', 'outside', 'new.txt', 'a\0b', '..\\..', 'é', '🙂', '%2e%2e',
];

/**
 * Paths worth trying every time (fast-check `examples`): ways in that must work, and known
 * ways out (through links, chains, absolute targets, dangling links, the parent's files).
 */
export const KNOWN_PATHS: readonly string[] = [
  'file.txt', 'sub/inner.txt', 'link-in/inner.txt', 'self/self/file.txt', 'link-out/back/file.txt', 'sub/up/ws/file.txt',
  'chain/back/sub/inner.txt', 'link-secret', 'link-out/secret.txt', 'chain/secret.txt', 'abs-out/secret.txt', 'sub/up/secret.txt',
  '../secret.txt', 'sub/../../outside/secret.txt', 'dangling', 'dangling-file', 'link-out/../secret.txt', 'loop1', 'loop1/x',
];

/** Builds the sandbox (see the module comment). */
export async function makeConfinementSandbox(): Promise<ConfinementSandbox> {
  const sandbox = await makeSandbox();
  const { dir, outside, root } = sandbox;
  const insideFiles = [await sandbox.file('file.txt', INSIDE), await sandbox.file('sub/inner.txt', INSIDE)];
  await sandbox.file('secret.txt', SENTINEL, outside);
  await sandbox.file('secret.txt', SENTINEL, root);
  const links: [string, string][] = [
    ['link-out', '../outside'],
    ['link-secret', '../outside/secret.txt'],
    ['link-in', 'sub'],
    ['sub/up', '../..'],
    ['dangling', '../outside/created/new.txt'],
    ['dangling-file', '../outside/new.txt'],
    ['abs-out', outside],
    ['loop1', 'loop2'],
    ['loop2', 'loop1'],
    ['chain', 'link-out'],
    ['self', '.'],
  ];
  for (const [name, target] of links) symlinkSync(target, join(dir, name));
  symlinkSync('../ws', join(outside, 'back')); // a way back in from outside
  return { ...sandbox, insideFiles };
}

/** Hostile path strings: sandbox names, `..`, NUL, unicode, absolute prefixes, backslashes. */
export function hostilePath(sandbox: Sandbox): fc.Arbitrary<string> {
  const segment = fc.oneof({ arbitrary: fc.constantFrom(...SEGMENTS), weight: 5 }, { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }), weight: 1 });
  const prefix = fc.constantFrom('', '', '', './', '/', '//', `${sandbox.dir}/`, `${sandbox.root}/`, `${sandbox.outside}/`, '/etc/');
  const separator = fc.constantFrom('/', '/', '/', '\\', '//');
  return fc
    .tuple(prefix, fc.array(fc.tuple(segment, separator), { minLength: 1, maxLength: 5 }), fc.constantFrom('', '/'))
    .map(([start, parts, end]) => start + parts.map(([s, sep], i) => (i === 0 ? s : sep + s)).join('') + end)
    .filter((path) => path !== '');
}

/**
 * Where `path` really leads from `workspace`: walks it one component at a time from `/`,
 * `lstat`ing each and following symlinks (also dangling ones, as a write would), until a
 * component is missing; the rest is kept as written. At most 40 links are followed.
 */
export function oracleRealPath(workspace: string, path: string): string {
  return walk(resolve(workspace, path), 0);
}

function walk(absolute: string, hops: number): string {
  const parts = absolute.split('/').filter(Boolean);
  let current = '/';
  for (const [i, part] of parts.entries()) {
    const next = join(current, part);
    let link: string | undefined;
    try {
      link = lstatSync(next).isSymbolicLink() ? readlinkSync(next) : undefined;
    } catch {
      return join(current, ...parts.slice(i));
    }
    if (link !== undefined) {
      if (hops >= 40) return join(next, ...parts.slice(i + 1));
      return walk(resolve(current, link, ...parts.slice(i + 1)), hops + 1);
    }
    current = next;
  }
  return current;
}

/** Whether a real path is the workspace or below it. */
export function isInside(workspace: string, real: string): boolean {
  return real === workspace || real.startsWith(`${workspace}/`);
}

/** Every entry of the sandbox outside the workspace (links not followed), with file contents. */
export function outsideSnapshot(sandbox: Sandbox): Record<string, string> {
  const snapshot: Record<string, string> = {};
  const visit = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (path === sandbox.dir) continue;
      const stats = lstatSync(path);
      if (stats.isSymbolicLink()) snapshot[path] = `-> ${readlinkSync(path)}`;
      else if (stats.isDirectory()) {
        snapshot[path] = 'folder';
        visit(path);
      } else snapshot[path] = readFileSync(path, 'utf8');
    }
  };
  visit(sandbox.root);
  return snapshot;
}
