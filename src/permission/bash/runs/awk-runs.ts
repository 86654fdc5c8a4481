/**
 * awk's writes with those of the commands it runs: a command string read as one plain command
 * (`print | "sort -o out"`, `system("rm x")`) writes what that command would; one with shell
 * syntax (`"sort > f"`, `;`, `$x`, quotes), or known only when it runs, may write any path.
 *
 * @module
 */
import { awkCommands } from './awk-syntax.js';
import { awkWrites } from '../writes/awk-writes.js';
import { anyPath, type CommandWrites, type WrittenWord } from '../writes/written-words.js';
import { quoted } from '../../quoted.js';

/** Text a command string must not hold to be read here as one command and its words. */
const SHELL_SYNTAX = /[^\w\s./,:=+@%^-]/;

/** What awk with `args` writes (see the module); `writesOf` reads a command it runs. */
export function awkRuns(args: readonly WrittenWord[], writesOf: (base: string, args: readonly WrittenWord[], redirected: readonly WrittenWord[]) => CommandWrites): CommandWrites {
  const { files, unseen, programs } = awkWrites(args);
  const commands: string[] = [];
  // Every program is read (no `some`): each adds its commands.
  const unknown = programs.filter((program) => awkCommands(program, commands)).length > 0;
  const all = { files: [...files], joined: unknown ? [anyPath('awk running a command known only when it runs, which may write any path')] : [] };
  for (const text of commands) {
    const [name, ...words] = text.trim().split(/\s+/).map((word): WrittenWord => ({ text: word, glob: false }));
    const run = SHELL_SYNTAX.test(text) || name === undefined ? undefined : writesOf(name.text.slice(name.text.lastIndexOf('/') + 1), words, []);
    if (run === undefined || run.unseen !== undefined || run.chdir) all.joined.push(anyPath(`awk running ${quoted(text)}, which may write any path`));
    else {
      all.files.push(...run.files);
      all.joined.push(...run.joined);
    }
  }
  return { ...all, names: [], chdir: false, ...(unseen === undefined ? {} : { unseen }) };
}
