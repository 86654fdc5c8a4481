/**
 * The Chromium that the `@sparticuz/chromium` devDependency ships inside its npm tarball, for
 * the browser tests (`chromium.ts`): found without importing the package (its entry checks
 * for AWS Lambda), and unpacked once per machine and version. It runs on Linux x64 with glibc
 * 2.34 or later (its NSS libraries are built on Amazon Linux 2023) and needs nothing from the
 * system but glibc and libgcc_s: its NSS, NSPR and expat, SwiftShader and fonts come with it.
 *
 * @module
 */
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { extract } from 'tar';

/** The devDependency whose tarball holds a Chromium build. */
export const NPM_PACKAGE = '@sparticuz/chromium';

/** Oldest glibc that the package's NSS libraries accept. */
const MIN_GLIBC = [2, 34];

/** Files that only a complete unpack has (a tmp cleaner may have taken some since). */
const UNPACKED_FILES = ['chromium', 'lib/libnss3.so', 'libGLESv2.so', 'fonts.conf'];

/** The package as installed: its version and its `bin/` with the compressed browser. */
export interface NpmChromium {
  readonly version: string;
  readonly bin: string;
}

/** The npm package, when it is installed and its binary can run here. */
export function npmChromium(): NpmChromium | undefined {
  if (process.platform !== 'linux' || process.arch !== 'x64' || !glibcAtLeast(MIN_GLIBC)) return undefined;
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(NPM_PACKAGE);
  } catch {
    return undefined; // not installed (npm install --omit=dev)
  }
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (name !== NPM_PACKAGE || version === undefined) continue;
    const bin = join(dir, 'bin');
    return existsSync(join(bin, 'chromium.br')) ? { version, bin } : undefined;
  }
  return undefined;
}

function glibcAtLeast(wanted: number[]): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  const have = report?.header?.glibcVersionRuntime?.split('.').map(Number);
  if (have === undefined) return false; // musl, or unknown
  for (let i = 0; i < wanted.length; i += 1) {
    const a = have[i] ?? 0;
    const b = wanted[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/**
 * Unpacks the package's `bin/` into `os.tmpdir()/rxharness-chromium-<version>-<uid>` unless a complete
 * copy is there: the binary, SwiftShader beside it (where Chromium looks), `lib/` with NSS, NSPR
 * and expat, and the fonts with a `fonts.conf` naming them. Written to a private directory first
 * and renamed into place, so a parallel test file either finds a complete copy or loses the
 * rename and takes the winner's.
 */
export async function unpackNpmChromium({ version, bin }: NpmChromium): Promise<string> {
  const target = join(tmpdir(), `rxharness-chromium-${version}-${process.getuid?.() ?? 0}`);
  if (isUnpacked(target)) return target;
  await removeAbandoned(target);
  if (existsSync(target)) {
    // incomplete (a tmp cleaner took files): move it aside, unless a parallel file already did
    const aside = `${target}.stale-${process.pid}`;
    if (await rename(target, aside).then(() => true, () => false)) await rm(aside, { recursive: true, force: true });
  }
  const staging = await mkdtemp(`${target}.unpacking-${process.pid}-`);
  try {
    await pipeline(
      createReadStream(join(bin, 'chromium.br')),
      createBrotliDecompress(),
      createWriteStream(join(staging, 'chromium'), { mode: 0o755 }),
    );
    for (const tarball of ['al2023.tar.br', 'swiftshader.tar.br', 'fonts.tar.br']) {
      await pipeline(createReadStream(join(bin, tarball)), createBrotliDecompress(), extract({ cwd: staging }));
    }
    await writeFile(
      join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
        `  <dir>${join(target, 'fonts')}</dir>\n  <cachedir>${join(target, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (isUnpacked(target)) return target; // a parallel test file renamed its copy first
    throw error;
  }
  return target;
}

function isUnpacked(dir: string): boolean {
  return UNPACKED_FILES.every((file) => existsSync(join(dir, file)));
}

/** Removes the staging directories of unpacks whose process is gone (killed mid-unpack). */
async function removeAbandoned(target: string): Promise<void> {
  const prefix = `${basename(target)}.unpacking-`;
  for (const name of readdirSync(dirname(target))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) {
      await rm(join(dirname(target), name), { recursive: true, force: true });
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
