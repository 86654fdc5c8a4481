/**
 * A consumer project of the packed tarball, offline and fast: the tarball unpacked as its
 * `node_modules/rxharness` (what `npm install <tgz>` puts there), and beside it a symlink to
 * this repository's copy of each package the tarball's `dependencies` name (their own
 * dependencies resolve from where they really are). Only declared dependencies are linked,
 * so an import of a package the tarball does not declare fails here as it would for a user.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { EMPTY_HOME } from '../support/empty-home.js';

const run = promisify(execFile);

/** The repository root. */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** What `npm pack --json` says about the tarball. */
export interface PackInfo {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

/**
 * Packs the repository into `dir` as it stands, without lifecycle scripts: `prepare` would
 * build again, and `npm test` has just built `dist/`.
 */
export async function packInto(dir: string): Promise<PackInfo & { readonly tarball: string }> {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 });
  const [info] = JSON.parse(stdout) as PackInfo[];
  return { ...info!, tarball: join(dir, info!.filename) };
}

/**
 * Makes a consumer project in `dir` with `packageJson` and `files`, and the tarball installed
 * as its `node_modules/rxharness` (plus `@types/node`, which a TypeScript consumer has).
 */
export async function consumerProject(dir: string, tarball: string, packageJson: object, files: Readonly<Record<string, string>>): Promise<void> {
  const modules = join(dir, 'node_modules');
  await mkdir(join(modules, 'rxharness'), { recursive: true });
  await run('tar', ['xzf', tarball, '-C', join(modules, 'rxharness'), '--strip-components=1']);
  const manifest = JSON.parse(await readFile(join(modules, 'rxharness/package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of [...Object.keys(manifest.dependencies ?? {}), '@types/node']) {
    await mkdir(dirname(join(modules, name)), { recursive: true });
    await symlink(join(REPO, 'node_modules', name), join(modules, name), 'dir');
  }
  await writeFile(join(dir, 'package.json'), JSON.stringify(packageJson));
  for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text);
}

/**
 * Runs `node <args>` in `cwd`, with an empty HOME (an engine there reads no one's
 * `~/.rxharness`); resolves with its output, whatever its exit code.
 */
export async function node(cwd: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...args], { cwd, env: { ...process.env, HOME: EMPTY_HOME } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Typechecks a consumer project with this repository's `tsc`. */
export function tsc(cwd: string, project: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return node(cwd, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', project]);
}
