import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findChromium, launchChromium } from './chromium.js';
import { NPM_PACKAGE, npmChromium, unpackNpmChromium } from './npm-chromium.js';

/** Linux x64 with glibc 2.34 or later: where the package's Chromium runs (CI's machine is one). */
const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;
const RUNS_HERE = process.platform === 'linux' && process.arch === 'x64' && glibc !== undefined && Number(glibc.split('.')[1]) >= 34;
const npm = npmChromium();

describe('the browser tests find their Chromium in npm', () => {
  const saved = process.env.TMPDIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });

  it('uses the Chromium shipped in the devDependency wherever it runs, before any system one', () => {
    expect(npm !== undefined).toBe(RUNS_HERE);
    expect(findChromium()?.includes(NPM_PACKAGE) ?? false).toBe(RUNS_HERE);
  });

  it.runIf(npm)('launches it: the browser reports the version the package ships', async () => {
    const browser = await launchChromium();
    try {
      expect(browser.version().split('.')[0]).toBe(npm!.version.split('.')[0]);
    } finally {
      await browser.close();
    }
  });

  it.runIf(npm)('unpacks once when two unpack at the same time, leaves no staging directory, and repairs a copy a cleaner thinned out', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'npm-chromium-'));
    process.env.TMPDIR = dir;
    try {
      const [a, b] = await Promise.all([unpackNpmChromium(npm!), unpackNpmChromium(npm!)]);
      expect(a).toBe(b);
      expect(readdirSync(dir)).toEqual([a.slice(dir.length + 1)]);
      await rm(join(a, 'lib', 'libnss3.so'));
      expect(await unpackNpmChromium(npm!)).toBe(a);
      expect(existsSync(join(a, 'lib', 'libnss3.so'))).toBe(true);
      expect(readdirSync(dir)).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
