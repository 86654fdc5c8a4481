/**
 * Launches headless Chromium for the browser tests through `playwright-core`. Nothing ever
 * downloads a browser; the tests use, in this order:
 *
 * 1. the Chromium that the `@sparticuz/chromium` devDependency ships inside its npm tarball
 *    (Linux x64 with glibc 2.34 or later). It is brotli-compressed there, with its own NSS, NSPR
 *    and expat libraries, SwiftShader and fonts, so it needs nothing from the system but glibc
 *    and libgcc_s. It is unpacked once into `os.tmpdir()/rxharness-chromium-<version>-<uid>`, which
 *    later runs reuse; parallel test files unpack into private directories and rename, so none
 *    sees a half-written one. Its libraries are put on `LD_LIBRARY_PATH` for that launch only;
 * 2. the system's Chromium (Debian's `chromium` package);
 *
 * and are skipped with a note when neither exists (failed in CI, see `system-requirement.ts`).
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { NPM_PACKAGE, npmChromium, unpackNpmChromium, type NpmChromium } from './npm-chromium.js';

const KNOWN_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** How to get a Chromium, for the skip note and the launch error. */
export const CHROMIUM_INSTALL =
  `npm ci (brings ${NPM_PACKAGE}, for Linux x64 with glibc 2.34+), or: sudo apt-get install -y chromium`;

/** Where the browser tests' Chromium comes from. */
type ChromiumSource = ({ kind: 'npm' } & NpmChromium) | { kind: 'system'; executablePath: string };

let located: ChromiumSource | null | undefined;
/** The npm Chromium's unpacked directory, once per process. */
let unpacked: Promise<string> | undefined;

/**
 * The Chromium the browser tests will use: the npm package's compressed binary (unpacked when
 * launched), else the system's executable; undefined if there is neither.
 */
export function findChromium(): string | undefined {
  const source = locateChromium();
  if (source === undefined) return undefined;
  return source.kind === 'npm' ? join(source.bin, 'chromium.br') : source.executablePath;
}

/** Starts headless Chromium, or throws an error that says how to get one. */
export async function launchChromium(): Promise<Browser> {
  const source = locateChromium();
  if (source === undefined) {
    throw new Error(`The browser tests need Chromium, and there is none. Get it with: ${CHROMIUM_INSTALL}. The tests never download a browser.`);
  }
  if (source.kind === 'system') {
    return chromium.launch({ executablePath: source.executablePath, args: ['--no-sandbox'], headless: true });
  }
  unpacked ??= unpackNpmChromium(source);
  const dir = await unpacked;
  const libs = join(dir, 'lib');
  const inherited = process.env.LD_LIBRARY_PATH;
  return chromium.launch({
    executablePath: join(dir, 'chromium'),
    args: ['--no-sandbox'],
    headless: true,
    env: {
      ...(process.env as Record<string, string>),
      LD_LIBRARY_PATH: inherited ? `${libs}:${inherited}` : libs,
      FONTCONFIG_PATH: dir,
    },
  });
}

function locateChromium(): ChromiumSource | undefined {
  if (located === undefined) {
    const npm = npmChromium();
    located = (npm ? { kind: 'npm' as const, ...npm } : undefined) ?? systemChromium() ?? null;
  }
  return located ?? undefined;
}

/** `command -v chromium`, else a known Debian path. */
function systemChromium(): ChromiumSource | undefined {
  let executablePath: string | undefined;
  try {
    executablePath = execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    // `command -v` exits non-zero when nothing is found (and there may be no sh): try the known paths
  }
  executablePath ??= KNOWN_PATHS.find((path) => existsSync(path));
  return executablePath === undefined ? undefined : { kind: 'system', executablePath };
}
