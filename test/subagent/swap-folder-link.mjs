/**
 * Swaps the folder `<dir>/<name>` for a symbolic link and back, as fast as it can, until it is
 * killed: `<dir>/<name>.link` (the link, made by the test) and the folder trade places by
 * renames, so `<dir>/<name>` is the folder one moment and a link out the next. Run as its own
 * process, it races the test's reads as a planted process (a build script, a watcher) would.
 *
 * node test/subagent/swap-folder-link.mjs <dir> <name>
 *
 * @module
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';

const [dir, name] = process.argv.slice(2);
const at = (suffix) => join(dir, `${name}${suffix}`);
process.stdout.write('swapping\n');
for (;;) {
  try {
    renameSync(at(''), at('.folder'));
    renameSync(at('.link'), at(''));
    renameSync(at(''), at('.link'));
    renameSync(at('.folder'), at(''));
  } catch {
    // A rename the killed test's cleanup beat: try again until killed.
  }
}
