/**
 * Launches the system's headless Chromium (Debian's `chromium` package) for the browser
 * tests through `playwright-core`. Nothing ever downloads a browser: when Chromium is
 * missing the tests are skipped with a note (failed in CI, see `system-requirement.ts`).
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const KNOWN_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The Chromium executable: `command -v chromium`, else a known Debian path; undefined if none. */
export function findChromium(): string | undefined {
  try {
    const found = execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim();
    if (found) return found;
  } catch {
    // `command -v` exits non-zero when nothing is found: try the known paths
  }
  return KNOWN_PATHS.find((path) => existsSync(path));
}

/** Starts headless Chromium, or throws an error that says how to install it. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (executablePath === undefined) {
    throw new Error(
      'The browser tests need Chromium, which is not installed. Install Debian\'s "chromium" package ' +
        '(sudo apt-get install -y chromium); .ci/run does this in CI. The tests never download a browser.',
    );
  }
  return chromium.launch({ executablePath, args: ['--no-sandbox'], headless: true });
}
