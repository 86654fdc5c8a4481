/**
 * A command name that xargs, parallel or `find -exec` fill in when they run (`xargs env` with
 * `rm y` as input, `find -name rm -exec {} y \;`): no rule sees which program that is.
 *
 * @module
 */
import { wrapsCommand } from './command-programs.js';
import { WRAPPERS } from './shell-programs.js';
import { commandBase } from './program-names.js';
import { quoted } from '../quoted.js';

// Words a wrapper's options may be followed by before its command: options, assignments (env),
// numbers and durations (`timeout 5`, `nice -n 5`).
const OPTION_LIKE = /^-|^[A-Za-z_]\w*=|^\d[\d.]*[smhd]?$/;

/**
 * Why `words` (a command as `program` runs it: xargs, parallel, find..., what it appends
 * included) has a name only known when it runs, or `undefined`. `isFilled`: whether a word
 * holds what it fills in (`{}`, an `-I` placeholder: see `filler-runs`). Past a wrapper its
 * options are skipped loosely, an option's value included (`sudo -u root {}`): a wrong guess
 * only judges more.
 */
export function filledCommandName(words: readonly string[], isFilled: (word: string) => boolean, program: string): string | undefined {
  let at = 0;
  while (at < words.length) {
    const name = words[at]!;
    if (isFilled(name)) return `a command name only known when it runs (${quoted(name)}, filled in by ${program})`;
    // Read by the name the checks know, as every program is (`gtimeout` is timeout, `/usr/bin/SUDO` sudo).
    const base = commandBase(name);
    if (!WRAPPERS.has(base) && !wrapsCommand(base, words.slice(at + 1))) return undefined;
    let next = at + 1;
    for (; next < words.length; next += 1) {
      const word = words[next]!;
      if (isFilled(word)) break;
      const previous = words[next - 1]!;
      // `-u root`, `--user root`: the value of an option written without `=`.
      const value = next > at + 1 && /^-[A-Za-z]$|^--[\w-]+$/.test(previous);
      if (!OPTION_LIKE.test(word) && !value) break;
    }
    at = next;
  }
  return undefined;
}
