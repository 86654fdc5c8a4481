// Runs `npm run build` unless dist/ is newer than everything the build reads, so
// `npm run demo` starts at once on a fresh dist/ and still never runs stale code. A folder's
// own time changes when a file is added or removed in it, so those count too.
import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Written by the build's last step (build-page.mjs): a failed build leaves it older.
const OUTPUT = 'dist/web/page/page.js';
const INPUTS = ['src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time under `path` (0 when it does not exist). */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

const built = statSync(OUTPUT, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (built === 0 || INPUTS.some((input) => newest(input) > built)) execSync('npm run build', { stdio: 'inherit' });
