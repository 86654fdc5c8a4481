/**
 * A bash write that reaches, through a symbolic link already in the workspace, a file other
 * programs run (`hooks -> .git/hooks`, then `echo 'rm -rf x' > hooks/pre-commit` and an
 * allowed `git commit`): the line reader (`bash/writes/executed-writes`) reads the path as shown,
 * so this reads where it really leads, and the line is one the checker cannot read, as it
 * would be if it named `.git/hooks/pre-commit` itself.
 *
 * @module
 */
import { commandParts } from './bash/command-parts.js';
import { writeTargets } from './bash/writes/write-targets.js';
import { EXECUTED_FILE_PATTERNS } from './default-rules.js';
import { foldCase } from './fold-case.js';
import type { LinkWalker } from './link-walker.js';
import { ranThroughLink } from './linked-runs.js';
import { linkedTarget } from './linked-targets.js';
import { patternsOverlap } from './pattern-overlap.js';
import { quoted } from './quoted.js';

/** The folders and files of `EXECUTED_FILE_PATTERNS` (and `.rxharness/`) at any depth, as command patterns (`*` crosses `/`). */
const PATTERNS: readonly string[] = [...EXECUTED_FILE_PATTERNS.map((p) => p.replace(/^\*\*\//, '')), '.rxharness/**'].flatMap((pattern) => {
  const name = pattern.replace(/\/\*\*$/, '');
  return pattern.endsWith('/**') ? [name, `${name}/*`, `*/${name}`, `*/${name}/*`] : [name, `*/${name}`];
});

/**
 * Why `line` writes, through a symbolic link, a file other programs run (or one under
 * `.rxharness/`, or one a program on the line runs: see `linked-runs`), or `undefined`: a write whose way cannot be followed (a loop, EACCES) may
 * be one. Letter case is ignored, as some file systems do (folded: `.huſky` is `.husky`, see `foldCase`).
 *
 * @example
 * ```ts
 * // with hooks -> .git/hooks in the workspace
 * executedThroughLink('echo x > hooks/pre-commit', walker); // 'a write to "hooks/pre-commit", which leads to ".git/hooks/pre-commit" through a symbolic link: it may write a file other programs run ...'
 * ```
 */
export function executedThroughLink(line: string, links: LinkWalker): string | undefined {
  const ran = ranThroughLink(line, links);
  if (ran !== undefined) return ran;
  const writes = commandParts(line).writes;
  if (writes === undefined) return undefined;
  for (const target of writeTargets(writes, line)) {
    const linked = linkedTarget(target, links);
    if (linked === undefined) continue;
    const shapes = [...linked.paths.map(escape), ...linked.shapes].map(foldCase);
    if (shapes.some((shape) => PATTERNS.some((pattern) => patternsOverlap(pattern, shape)))) {
      return `a write to ${quoted(target.written)}, which ${linked.through}: it may write a file other programs run (or one under .rxharness/), which may run a command the line does not show`;
    }
  }
  return undefined;
}

/** A path as a pattern matches it literally. */
function escape(path: string): string {
  return path.replace(/[\\{}*?[\]()!@+]/g, (c) => `\\${c}`);
}
