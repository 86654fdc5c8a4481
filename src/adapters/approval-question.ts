import { approvalArguments, foldText } from './approval-arguments.js';
import { markInvisible, visibleLines } from '../text/visible-text.js';
import type { ApprovalRequest } from '../permission/approval.js';

/** Lines of an argument other than the main one shown before it is folded. */
export const FOLD_LINES = 12;
/** Characters of one such line shown before it is cut. */
export const FOLD_LINE_CHARS = 300;

/** What is asked, and whether part of it was folded (then the prompt offers to show all). */
export interface Question {
  /** What to print before the prompt. */
  readonly text: string;
  /** True when a long argument was cut: the prompt then offers `s` to show all. */
  readonly folded: boolean;
}

/**
 * What is asked: who, which tool, every argument and why. A human must see all of what will
 * run as it will run: the main argument (command, path, URL) whole, each line on its own
 * line; then every other argument (a write's content, an MCP tool's arguments), a long one
 * folded to its first {@link FOLD_LINES} lines unless `full`; every invisible or
 * direction-changing character marked (`<U+202E>`).
 *
 * @example
 * ```ts
 * askedQuestion(request).text; // '\n? main wants to run write\n  .env\n  content: A=1\n  (...)\n'
 * ```
 */
export function askedQuestion(request: ApprovalRequest, full = false): Question {
  // The task as the tree above the question names it; its id only when no label came with it.
  const who = request.taskLabel ?? (request.taskId ? `${request.agentName} (task ${request.taskId})` : request.agentName);
  const args = approvalArguments(request.args);
  const main = args.find((a) => a.main);
  const mainLines = main ? visibleLines(main.text) : [];
  const count = mainLines.length > 1 ? ` (${mainLines.length} lines):` : main ? '' : ':';
  let folded = false;
  const others = args.filter((a) => !a.main).map((arg) => {
    const fold = foldText(arg.text, FOLD_LINES, FOLD_LINE_CHARS);
    const cut = fold.folded && !full;
    folded ||= cut;
    const lines = visibleLines(cut ? fold.shown : arg.text);
    const name = markInvisible(arg.name);
    if (!cut && lines.length === 1) return `  ${name}: ${lines[0]}\n`;
    const lineCount = `${fold.lines} line${fold.lines === 1 ? '' : 's'}`;
    const size = cut ? ` (${lineCount}, ${fold.chars} characters; the start shown, "s" shows all)` : ` (${lineCount})`;
    return `  ${name}${size}:\n${lines.map((line) => `    ${line}\n`).join('')}`;
  });
  const shown = mainLines.map((line) => `  ${line}\n`).join('');
  const text = `\n? ${markInvisible(who)} wants to run ${markInvisible(request.toolName)}${count}\n${shown}${others.join('')}  (${markInvisible(request.reason)})\n`;
  return { text, folded };
}

/** The question's text (see {@link askedQuestion}): long arguments folded, or every one in full with `full`. */
export function question(request: ApprovalRequest, full = false): string {
  return askedQuestion(request, full).text;
}
