import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run demo` builds only when dist/ is stale: scripts/build-if-stale.mjs, run in a
// project whose `build` script just leaves a mark.
const script = join(import.meta.dirname, '..', '..', 'scripts', 'build-if-stale.mjs');
const run = promisify(execFile);
let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

async function project(): Promise<void> {
  dir = await mkdtemp(join(tmpdir(), 'rxharness-stale-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'p', scripts: { build: 'node -e "require(\'fs\').writeFileSync(\'built\', \'\')"' } }));
  await mkdir(join(dir, 'src'));
  await writeFile(join(dir, 'src', 'a.ts'), 'export {};\n');
  await mkdir(join(dir, 'dist', 'web', 'page'), { recursive: true });
  await writeFile(join(dir, 'dist', 'web', 'page', 'page.js'), '');
}
const age = (path: string, secondsAgo: number) => utimes(join(dir, path), new Date(Date.now() - secondsAgo * 1000), new Date(Date.now() - secondsAgo * 1000));

describe('build-if-stale (npm run demo)', () => {
  it('does not build when dist/ is newer than every source', async () => {
    await project();
    await age('src/a.ts', 60);
    await age('src', 60);
    await age('package.json', 60);
    await run(process.execPath, [script], { cwd: dir });
    expect(existsSync(join(dir, 'built'))).toBe(false);
  });

  it('builds when a source file is newer than the build, or when there is no build', async () => {
    await project();
    await age('dist/web/page/page.js', 60);
    await run(process.execPath, [script], { cwd: dir });
    expect(existsSync(join(dir, 'built'))).toBe(true);

    await rm(join(dir, 'built'));
    await rm(join(dir, 'dist'), { recursive: true });
    await run(process.execPath, [script], { cwd: dir });
    expect(existsSync(join(dir, 'built'))).toBe(true);
  });
});
