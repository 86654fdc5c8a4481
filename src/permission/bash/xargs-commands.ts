/**
 * The command xargs runs, where its start is known: xargs reads its own options as getopt does,
 * up to the first operand (`+` in its option string), and everything from there on is the
 * command with its arguments, what it reads from its input appended (`{}`) or put in place of
 * its `-I` placeholder. So only that word is its command (`xargs mv -t d/ rm` runs mv, as
 * `mv -t d/ rm` does), not each later word as for a wrapper whose syntax is not read.
 *
 * @module
 */
import { mayRead } from './inner-budget.js';
import type { PartSink } from './part-sink.js';
import { INPUT_ARGUMENT, isAssignment, text, type TextWord, type Word } from './shell-words.js';
import type { AnalyseWords, RunningCommand } from './running-command.js';
import { settingRead } from './wrapper-settings.js';
import { readXargs, xargsStart } from './xargs-options.js';
import { quoted } from '../quoted.js';

/**
 * Records in `sink` what xargs (`command`) runs, reading it with `analyse`; `false` when its
 * start is not known (see `xargsStart`; or a redirection among its words may hide one): then
 * every later word is tried as its command, as for other wrappers.
 */
export function xargsCommands({ words, plain, depth }: Pick<RunningCommand, 'words' | 'plain' | 'depth'>, sink: PartSink, analyse: AnalyseWords): boolean {
  const run = readXargs(plain.slice(1).map(text));
  // Redirections may hide words (`xargs -n 5 >f rm` reads as `xargs -n 5>f rm`).
  const command = words.some((w) => w.kind === 'redirect') ? undefined : xargsStart(plain, 1);
  if (typeof run === 'string' || command === undefined) {
    // Where its options are not sure, any `--p…` may be `--process-slot-var` (only that long name starts so).
    const slot = plain.slice(1).find((word) => word.text.startsWith('--p'));
    if (slot !== undefined) sink.flag(`xargs setting a variable for its command (${quoted(slot.text)}) where its options cannot be read`);
    return false;
  }
  const name = plain[command];
  if (name === undefined) return true; // it runs echo
  const started: Word[] = [...words.slice(words.indexOf(name)), ...(run.appends ? [INPUT_ARGUMENT] : [])];
  // Judged as a command where it starts: a wrapper in it is read in turn (`xargs sudo rm`).
  if (mayRead(sink, depth + 1, started)) analyse(started, 'variant', depth + 1, sink, true);
  // `xargs -I R cp y R`: R is what xargs puts there, as `{}` is; the words as written are judged too (`-I r rm r`).
  // A line it reads may be an option there too (`xargs -I{} find . {}` with `-delete`); it is one
  // word, never split (`quoted`), so as an option's value it stays that value (`find . -name {}`).
  const placeholder = run.placeholder;
  if (placeholder !== undefined && mayRead(sink, depth + 1, started)) {
    const replaced = started.map((w): Word => (w.kind === 'word' && w.text.includes(placeholder) ? { ...w, text: w.text.replaceAll(placeholder, '{}'), input: true, quoted: true } : w));
    analyse(replaced, 'variant', depth + 1, sink, true);
  }
  // `--process-slot-var NAME` sets NAME to a slot number for the command, as `NAME=0 cmd` would
  // (`PATH=0`: xargs then runs `0/cmd`): judged so.
  for (const slot of run.slots) {
    const setting: TextWord = { kind: 'word', text: `${slot}=0`, glob: false };
    const assignment = isAssignment(setting, [setting]);
    if (assignment && mayRead(sink, depth + 1, started)) analyse([setting, ...started], 'variant', depth + 1, sink, false);
    settingRead(setting, assignment, depth, sink);
  }
  // A name with spaces may be a command line, as a wrapper's word may: read quietly, as there.
  if (/\s/.test(name.text)) sink.line(name.text, 'variant', depth + 1, true);
  return true;
}
