/**
 * git commands that rewrite the working tree from the repository: what they write is not on
 * the line, so they count as writing any path (`git checkout main`, `git reset --hard`,
 * `git merge`, `git pull`, `git stash pop`...), except where the line names all they touch:
 * the pathspecs of `git restore`, `git checkout [tree] -- paths`, `git stash push -- paths`,
 * `git clean paths` and `git rm paths`, each a folder with all it holds (git's `*` crosses
 * `/`, so a pathspec with a wildcard is read as a shape). Forms that only read, or only touch
 * the index or refs (`git status`, `git restore --staged`, `git reset HEAD x`, `git stash
 * list`, `git checkout -b new`), write nothing here.
 *
 * @module
 */
import { operandsOf } from '../option-values.js';
import { quoted } from '../../quoted.js';

/** A word of a command, as the shell parser gave it. */
interface Word {
  readonly text: string;
  readonly glob: boolean;
}

/** What a working-tree command writes: pathspecs (folders with all they hold), or why it may write any path. */
export interface TreeWrites<W extends Word> {
  readonly pathspecs: W[];
  readonly anyPath?: string;
}

/** Commands that always rewrite the working tree from the repository. */
const REWRITERS = new Set(['merge', 'pull', 'rebase', 'cherry-pick', 'revert', 'bisect', 'sparse-checkout', 'submodule']);
/** Their forms that write nothing in the working tree. */
const READS: Readonly<Record<string, RegExp>> = {
  // `add` fills the folder it names, as `git-writes` reads it.
  submodule: /^(?:add|status|summary|foreach|sync|init|absorbgitdirs|set-branch|set-url|deinit)$/,
  'sparse-checkout': /^(?:list|check-rules)$/,
  bisect: /^(?:log|visualize|view|terms|help)$/,
};
/** Options of `checkout`, `restore` and `switch` taking a value. */
const SHORT = 'bBcCs';
const LONG = ['orphan', 'conflict', 'source', 'pathspec-from-file', 'create', 'force-create'];

/** What `git <command> <rest>` writes in the working tree (see the module); `undefined` for any other command. */
export function gitTreeWrites<W extends Word>(command: string, rest: readonly W[]): TreeWrites<W> | undefined {
  const words = rest.map((a) => a.text);
  const any = (form = command): TreeWrites<W> => ({ pathspecs: [], anyPath: `${quoted(`git ${form}`)}, which may rewrite any path of the working tree` });
  const { operands } = operandsOf(rest, SHORT, LONG);
  if (words.some((w) => w.startsWith('--pathspec-from-file'))) return any();
  switch (command) {
    case 'checkout':
    case 'switch': {
      // `git checkout -b new` (no start point) makes a branch and keeps every file.
      if (words.some((w) => /^-[A-Za-z]*[bBcC]$|^--(?:orphan|create|force-create)/.test(w)) && operands.length === 0) return { pathspecs: [] };
      const dash = words.indexOf('--');
      if (command === 'checkout' && dash >= 0) return pathspecs(rest.slice(dash + 1), command);
      return any(`${command}${operands[0] === undefined ? '' : ` ${operands[0].text}`}`);
    }
    case 'restore':
      // `--staged` alone writes the index; with `--worktree` (`-W`) the files too.
      if (words.some((w) => /^-[A-Za-z]*S|^--staged/.test(w)) && !words.some((w) => /^-[A-Za-z]*W|^--worktree/.test(w))) return { pathspecs: [] };
      return pathspecs(operands, command);
    case 'reset':
      return words.some((w) => /^--(?:hard|merge|keep|recurse-submodules)/.test(w)) ? any('reset --hard') : { pathspecs: [] };
    case 'stash': {
      const sub = words.find((w) => !w.startsWith('-')) ?? 'push';
      if (/^(?:list|show|drop|clear|create|store)$/.test(sub)) return { pathspecs: [] };
      const dash = words.indexOf('--');
      // `git stash push -- paths` puts back only those paths; any other form any path.
      return sub === 'push' && dash >= 0 ? pathspecs(rest.slice(dash + 1), 'stash push') : any(`stash ${sub}`);
    }
    case 'clean': {
      if (words.some((w) => /^-[A-Za-z]*n|^--dry/.test(w))) return { pathspecs: [] };
      const specs = operandsOf(rest, 'e', ['exclude']).operands;
      return specs.length > 0 ? pathspecs(specs, command) : any(command);
    }
    case 'read-tree':
      // Without `-u` it writes the index only.
      return words.includes('-u') ? any(command) : { pathspecs: [] };
    case 'rm':
      return words.some((w) => w === '--cached') ? { pathspecs: [] } : pathspecs(operandsOf(rest, '', []).operands, command);
    default: {
      if (!REWRITERS.has(command)) return undefined;
      const reads = READS[command];
      if (reads?.test(words.find((w) => !w.startsWith('-')) ?? '') === true) return { pathspecs: [] };
      return any(command);
    }
  }
}

/** Pathspecs as written: one in git's magic (`:/x`, `:(top)x`) or from nothing may be any path, a wildcard crosses folders. */
function pathspecs<W extends Word>(specs: readonly W[], command: string): TreeWrites<W> {
  if (specs.length === 0) return { pathspecs: [] };
  if (specs.some((s) => s.text.startsWith(':'))) return { pathspecs: [], anyPath: `${quoted(`git ${command}`)} with a pathspec in git's magic, which may name any path of the working tree` };
  return { pathspecs: specs.map((s) => (/[*?[]/.test(s.text) ? { ...s, glob: true } : s)) };
}
