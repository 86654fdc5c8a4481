/**
 * Ordinary programs with options whose value is a command they run (the GTFOBins class, the
 * table is `option-programs`). A bash rule names the program, not what such an option runs,
 * so a line holding one is unreadable.
 *
 * @module
 */

import { mayBecomeOption } from '../shell-words.js';
import { RUNNING_OPTIONS, type RunningOptions } from './option-programs.js';
import { packageCommandStarts } from './package-runs.js';
import { quoted } from '../../quoted.js';

/**
 * Why `base` with `args` runs a command given in one of its options, or `undefined`. The
 * reason names the program and the option as written.
 *
 * @example
 * ```ts
 * optionRun('tar', ['-cf', 'a.tar', '-I', 'rm x', 'dir']); // 'an option of tar that runs a command ("tar -I rm x")'
 * optionRun('tar', ['-czf', 'a.tgz', 'dir']); // undefined
 * ```
 *
 * @param dynamic - which of `args` are only known when it runs: one that may expand to an
 *   option (`$O`, `"$O"`, a leading glob `*` matching a file named `--checkpoint-action=...`)
 *   counts as such an option, also after one that takes a value (`-cf $OUT` splits when unquoted).
 * @param shown - the program's name as the line wrote it (`gtar` for tar), which the reason quotes.
 */
export function optionRun(base: string, args: readonly string[], dynamic: readonly boolean[] = [], shown = base): string | undefined {
  const spec = RUNNING_OPTIONS[base];
  if (spec === undefined) return undefined;
  // Options end at `--`; those of the command `npx` or `npm exec` runs are its own (`npx eslint -c cfg`).
  const dashes = args.indexOf('--');
  const end = Math.min(packageCommandStarts(base, args)[0] ?? args.length, dashes < 0 ? args.length : dashes);
  const unknown = args
    .slice(0, end)
    .findIndex((arg, i) => dynamic[i] === true && mayBecomeOption(arg) && spec.runTimeValue?.test(arg) !== true);
  if (unknown >= 0) return `a word only known when it runs (${quoted(args[unknown])}), which may be an option of ${shown} that runs a command`;
  for (let i = 0; i < end; i += 1) {
    const arg = args[i]!;
    if (spec.initial !== undefined && arg.startsWith('+') && !spec.initial.test(arg)) {
      return `an initial command of ${shown}, which may run a command (${quoted(`${shown} ${arg}`)})`;
    }
    if (spec.operand?.test(arg) === true) return `a setting of ${shown} that chooses or adds the commands it runs (${quoted(`${shown} ${arg}`)})`;
    const found = runningOption(spec, arg, args[i + 1], i === 0);
    if (found === undefined) continue;
    const [option, value, next] = found;
    if (spec.harmless?.(option, value) === true) continue;
    const word = next && value !== undefined ? `${arg} ${value}` : arg;
    return `an option of ${shown} that runs a command (${quoted(`${shown} ${word}`)})`;
  }
  return undefined;
}

/** The running option `arg` holds, with its value and whether that is the next word; else `undefined`. */
function runningOption(
  spec: RunningOptions,
  arg: string,
  following: string | undefined,
  first: boolean,
): [string, string | undefined, boolean] | undefined {
  const named = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
  if (named !== null) {
    const name = named[1]!;
    if (spec.exact?.includes(name) === true || !(spec.long ?? []).some((long) => long.startsWith(name))) return undefined;
    return named[2] !== undefined ? [`--${name}`, named[2], false] : [`--${name}`, following, true];
  }
  const word = spec.words?.find((w) => arg.startsWith('-') && arg.slice(1).includes(w.slice(1)));
  if (word !== undefined) {
    const rest = arg.slice(arg.indexOf(word.slice(1)) + word.length - 1).replace(/^=/, '');
    return rest !== '' ? [word, rest, false] : [word, following, true];
  }
  const letters = arg.startsWith('-') && arg.length > 1 ? arg.slice(1) : first && spec.oldForm === true ? arg : undefined;
  if (letters === undefined || spec.short === undefined) return undefined;
  // In tar's old form every letter takes its value from the next words in turn: any letter counts.
  const oldForm = !arg.startsWith('-');
  for (let at = 0; at < letters.length; at += 1) {
    const letter = letters[at]!;
    if (spec.short.includes(letter)) {
      const rest = letters.slice(at + 1);
      if (oldForm || rest === '') return [`-${letter}`, oldForm ? undefined : following, true];
      return [`-${letter}`, rest, false];
    }
    if (!oldForm && spec.valued?.includes(letter) === true) return undefined;
  }
  return undefined;
}
