/**
 * The variables a wrapper sets in its command's environment (env's and sudo's `NAME=VALUE`,
 * xargs's `--process-slot-var NAME`): one that no shell assignment could set, or one bash
 * reads as a function, is code from elsewhere the rules cannot see.
 *
 * @module
 */
import type { PartSink } from './part-sink.js';
import type { TextWord } from './shell-words.js';
import { quoted } from '../quoted.js';

/** A setting bash imports as a function when its value starts with `() {` (`BASH_FUNC_ls%%=() { rm y; }`; any version's spelling). */
export const FUNCTION_SETTING = /^BASH_FUNC_[^=]*=/;

/** Why a `BASH_FUNC_…=` setting cannot be checked: every bash the command starts defines that function. */
export function functionChange(setting: string): string {
  return `a change of ${setting.slice(0, setting.indexOf('='))}, which makes programs run code from elsewhere (bash reads it as a function)`;
}

/**
 * Reads one of env's or sudo's `NAME=VALUE` settings (`assignment`: judged as one in front of
 * the command). env takes any name, which no shell assignment could set: a `BASH_FUNC_` one is
 * a function every bash it starts runs in place of a command, and what any other does to a
 * program is not known, so neither is dropped. A setting with spaces may be a command line (as
 * a wrapper's word may): read quietly, as it was before env's start was known.
 */
export function settingRead(word: TextWord, assignment: boolean, depth: number, sink: PartSink): void {
  if (FUNCTION_SETTING.test(word.text)) sink.flag(functionChange(word.text));
  else if (!assignment) sink.flag(`a change of a variable no shell assigns (${quoted(word.text.slice(0, word.text.indexOf('=')))}), which may make programs run code from elsewhere`);
  if (/\s/.test(word.text)) sink.line(word.text, 'variant', depth + 1, true);
}
