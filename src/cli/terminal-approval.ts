import { createInterface } from 'node:readline/promises';
import { markInvisible, visibleLines } from '../adapters/visible-text.js';
import type { JsonValue } from '../events/json.js';
import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from '../permission/approval.js';

/** The streams a {@link terminalApproval} asks on. */
export interface ApprovalTerminal {
  /** Where answers are typed (the CLI's stdin). */
  readonly input: NodeJS.ReadableStream;
  /** Where questions go (the CLI's stderr, so stdout stays the run's output). */
  readonly output: NodeJS.WritableStream;
}

/**
 * An approval handler that asks a human at a terminal, one question at a time (calls that
 * ask together, e.g. from parallel tasks, wait their turn). The answer: `y` approves, `a`
 * approves always (for this conversation), `n` or an empty line rejects, and any other text
 * rejects with that text as the comment the model reads. A cancelled run withdraws its
 * question and rejects.
 *
 * @example
 * ```ts
 * const engine = new HarnessEngine({ model, approve: terminalApproval({ input: process.stdin, output: process.stderr }) });
 * ```
 */
export function terminalApproval(terminal: ApprovalTerminal): ApprovalHandler {
  let turn: Promise<unknown> = Promise.resolve();
  return (request, { signal }) => {
    const answer = turn.then(() => ask(terminal, request, signal));
    turn = answer.catch(() => undefined);
    return answer;
  };
}

async function ask(terminal: ApprovalTerminal, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
  if (signal.aborted) return CANCELLED;
  if ((terminal.input as { readableEnded?: boolean }).readableEnded) throw new Error(INPUT_CLOSED);
  // terminal: false leaves the TTY in its own line mode, so Ctrl+C stays a SIGINT that
  // cancels the run (a raw-mode readline would swallow it).
  const lines = createInterface({ input: terminal.input, output: terminal.output, terminal: false });
  // A pending question never settles when the input ends (Ctrl+D): the close must reject it.
  const closed = new Promise<never>((_, reject) => lines.once('close', () => reject(new Error(INPUT_CLOSED))));
  closed.catch(() => undefined); // it also fires, unobserved, on the normal close below
  try {
    terminal.output.write(question(request));
    return parseAnswer(await Promise.race([lines.question(PROMPT, { signal }), closed]));
  } catch (e) {
    if (signal.aborted) return CANCELLED;
    throw e; // the input closed: the engine turns a failed handler into a rejection
  } finally {
    lines.close();
  }
}

const PROMPT = '[y]es / [a]lways / [n]o, or say what to do instead: ';
const INPUT_CLOSED = 'the terminal input closed before an answer';
const CANCELLED: ApprovalDecision = { decision: 'reject', comment: 'the run was cancelled' };

/**
 * What is asked: who, which tool, its full main argument and why. A human must see all of
 * what will run as it will run: each line of the argument on its own line, and every
 * invisible or direction-changing character marked (`<U+202E>`).
 */
export function question(request: ApprovalRequest): string {
  // The task as the tree above the question names it; its id only when no label came with it.
  const who = request.taskLabel ?? (request.taskId ? `${request.agentName} (task ${request.taskId})` : request.agentName);
  const lines = visibleLines(mainArgument(request));
  const count = lines.length > 1 ? ` (${lines.length} lines):` : '';
  const shown = lines.map((line) => `  ${line}\n`).join('');
  return `\n? ${markInvisible(who)} wants to run ${markInvisible(request.toolName)}${count}\n${shown}  (${markInvisible(request.reason)})\n`;
}

function mainArgument({ args }: ApprovalRequest): string {
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) {
    const record = args as { readonly [key: string]: JsonValue };
    for (const key of ['command', 'path', 'url']) {
      const value = record[key];
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return JSON.stringify(args);
}

/** `y`/`yes`, `a`/`always`, `n`/`no`/empty; anything else is a rejection saying that. */
export function parseAnswer(text: string): ApprovalDecision {
  const answer = text.trim();
  const word = answer.toLowerCase();
  if (word === 'y' || word === 'yes') return { decision: 'approve' };
  if (word === 'a' || word === 'always') return { decision: 'always' };
  if (word === '' || word === 'n' || word === 'no') return { decision: 'reject' };
  return { decision: 'reject', comment: answer };
}
