/**
 * A file a program on the line runs by name (`Makefile`, `package.json`: see `bash/runs/run-files`),
 * written through a symbolic link already in the workspace: `cfg -> .` makes
 * `echo 'all:;touch x' > cfg/Makefile; make` write the Makefile make reads, and
 * `Makefile -> build/rules.txt` makes a write of `build/rules.txt` one. The line reader
 * compares the text only; this compares where the written paths and the run files really are.
 *
 * @module
 */
import { posix } from 'node:path';
import { commandParts } from './bash/command-parts.js';
import { type FileRun, written } from './bash/runs/run-files.js';
import { foldCase } from './fold-case.js';
import type { LinkWalker } from './link-walker.js';
import { patternsOverlap } from './pattern-overlap.js';
import { quoted } from './quoted.js';

/**
 * Why `line` writes, through a link, a file a program on it runs, or `undefined`. Only paths
 * the line shows whole are followed (a glob or a run-time part is judged by its text there).
 *
 * @example
 * ```ts
 * // with cfg -> . in the workspace
 * ranThroughLink('echo x > cfg/Makefile; make', walker); // 'a write to "cfg/Makefile", which is "Makefile", a file make runs ...'
 * ```
 */
export function ranThroughLink(line: string, links: LinkWalker): string | undefined {
  const { writes, runs } = commandParts(line);
  if (writes === undefined || runs === undefined) return undefined;
  const root = links.root();
  if (root.kind !== 'real') return undefined;
  const folder = foldCase(root.path);
  const moved = writes.some((w) => w.chdir);
  const runFiles = linkedRunFiles(runs, links, root.path);
  for (const word of writes.flatMap(written)) {
    if (word.glob || /[$`…]/.test(word.text) || word.text.startsWith('~')) continue;
    const found = links.resolve(word.text);
    if (found.kind !== 'real') continue;
    const real = foldCase(found.path);
    const byLink = runFiles.find((file) => file.real === real);
    if (byLink !== undefined) return reason(word.text, byLink.name, byLink.program);
    if (!found.linked || (real !== folder && !real.startsWith(`${folder}/`))) continue;
    const relative = escape(posix.relative(folder, real));
    const run = runs.find((r) => [...r.here, ...(moved ? r.anywhere : [])].some((pattern) => patternsOverlap(pattern, relative)));
    if (run !== undefined) return reason(word.text, relative, run.program);
  }
  return undefined;
}

/** The run files in the workspace's folder that are links, with where they lead (case folded as a file system that ignores case folds: see `foldCase`). */
function linkedRunFiles(runs: readonly FileRun[], links: LinkWalker, root: string): { name: string; program: string; real: string }[] {
  const names = links.list(root) ?? [];
  const found: { name: string; program: string; real: string }[] = [];
  for (const run of runs) {
    for (const { name } of names) {
      if (!run.here.some((pattern) => !pattern.includes('/') && patternsOverlap(pattern, escape(foldCase(name))))) continue;
      const leads = links.resolve(name);
      if (leads.kind === 'real' && leads.linked) found.push({ name, program: run.program, real: foldCase(leads.path) });
    }
  }
  return found;
}

function reason(written: string, file: string, program: string): string {
  return `a write to ${quoted(written)}, which is ${quoted(file)} through a symbolic link, a file ${program} runs, and ${program} on the same line, which may run a command the line does not show`;
}

/** A path as a pattern matches it literally. */
function escape(path: string): string {
  return path.replace(/[\\{}*?[\]()!@+]/g, (c) => `\\${c}`);
}
