import { PLACEHOLDER } from './shell-scan.js';

/** An argument as the shell parser gave it: its text, and whether it is an unquoted glob. */
export interface ShapeWord {
  readonly text: string;
  readonly glob: boolean;
}

// What the shell replaces when the command runs: a substitution (`$(…)`, as the scanner
// leaves it), a parameter (`$x`, `${x}`, `$1`, `$@`; the parser writes `${x}` as `$x`), a
// brace expansion (`{a,b}`, `{1..3}`) or a leading tilde (`~`, `~user`).
const RUN_TIME = new RegExp(
  `${escapeRegExp(PLACEHOLDER)}|\\$(?:\\{[^}]*\\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?|\\{[^{}]*(?:,|\\.\\.)[^{}]*\\}|^~[^/]*`,
  'g',
);

/**
 * A simple command (its binary's name and its arguments) as a command pattern, when some
 * argument is only known when it runs: each such part is `*` (a glob argument keeps its
 * own `*`, `?` and `[...]`), everything else literal (escaped). `undefined` when every
 * argument is known as written, and the command is matched as it is.
 *
 * @example
 * ```ts
 * commandShape('git', [{ text: 'pu$xsh', glob: false }]); // 'git pu*sh'
 * commandShape('git', [{ text: 'pus?', glob: true }]); // 'git pus?'
 * commandShape('git', [{ text: 'log', glob: false }]); // undefined
 * ```
 */
export function commandShape(name: string, args: readonly ShapeWord[]): string | undefined {
  let dynamic = false;
  const shaped = args.map((word) => {
    const parts = word.text.split(RUN_TIME);
    // The parser marks `*` and `?` as globs, not a class (`pus[h]`): its quotes are gone, so in doubt it is one.
    const glob = word.glob || /\[[^\]]+\]/.test(word.text);
    if (parts.length > 1 || glob) dynamic = true;
    return parts.map((part) => literal(part, glob)).join('*');
  });
  if (!dynamic) return undefined;
  return [literal(name, false), ...shaped].join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * Text as a pattern matches it literally; a glob's own wildcards (`*`, `?`, `[...]`) stay
 * wildcards. `(`, `!`, `@` and `+` are escaped too: unescaped, `*(` or a leading `!` would
 * read as picomatch's syntax.
 */
function literal(text: string, glob: boolean): string {
  return text.replace(glob ? /[\\{}()!@+]/g : /[\\{}*?[\]()!@+]/g, (c) => `\\${c}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
