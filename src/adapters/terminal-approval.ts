import { createInterface } from 'node:readline/promises';
import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from '../permission/approval.js';
import { askedQuestion } from './approval-question.js';
import { dropTypedAhead } from './typed-ahead.js';

export { question } from './approval-question.js';

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
 * approves always (for this conversation), `n` or an empty line rejects, `s` (offered when a
 * long argument was folded) shows every argument in full and asks again, and any other text
 * rejects with that text as the comment the model reads. Only a line typed after the question
 * is shown answers it: what the input held before (typed ahead, or a pipe's lines) is
 * dropped. A cancelled run (or the engine's approval timeout) withdraws its question, saying
 * so, and rejects.
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
  if (await dropTypedAhead(terminal.input)) throw new Error(INPUT_CLOSED);
  if (signal.aborted) return CANCELLED; // withdrawn before it was shown
  // terminal: false leaves the TTY in its own line mode, so Ctrl+C stays a SIGINT that
  // cancels the run (a raw-mode readline would swallow it).
  const lines = createInterface({ input: terminal.input, output: terminal.output, terminal: false });
  // A pending question never settles when the input ends (Ctrl+D): the close must reject it.
  const closed = new Promise<never>((_, reject) => lines.once('close', () => reject(new Error(INPUT_CLOSED))));
  closed.catch(() => undefined); // it also fires, unobserved, on the normal close below
  try {
    const asked = askedQuestion(request);
    terminal.output.write(asked.text);
    for (;;) {
      const typed = await Promise.race([lines.question(asked.folded ? PROMPT_FOLDED : PROMPT, { signal }), closed]);
      // "s" shows every argument in full, then asks again.
      if (asked.folded && /^\s*(s|show)\s*$/i.test(typed)) terminal.output.write(askedQuestion(request, true).text);
      else return parseAnswer(typed);
    }
  } catch (e) {
    if (!signal.aborted) throw e; // the input closed: the engine turns a failed handler into a rejection
    // Withdrawn (a cancel, or the engine's approval timeout): say so where the question stands.
    terminal.output.write(`\n  (withdrawn: ${withdrawnBecause(signal)})\n`);
    return CANCELLED;
  } finally {
    lines.close();
  }
}

const PROMPT = '[y]es / [a]lways / [n]o, or say what to do instead: ';
const PROMPT_FOLDED = '[y]es / [a]lways / [n]o / [s]how all, or say what to do instead: ';
const INPUT_CLOSED = 'the terminal input closed before an answer';
const CANCELLED: ApprovalDecision = { decision: 'reject', comment: 'the run was cancelled' };

/** Why a question was withdrawn: the engine's timeout says so (a `TimeoutError`); anything else is a cancel. */
function withdrawnBecause(signal: AbortSignal): string {
  const reason = signal.reason as { name?: unknown; message?: unknown } | undefined;
  return reason?.name === 'TimeoutError' && typeof reason.message === 'string' ? `timed out, ${reason.message}` : 'the run was cancelled';
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
