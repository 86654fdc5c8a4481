/**
 * One approval's card on the page: who wants to run what, each argument shown whole as it
 * will run (every invisible or misleading character marked), the reason, and the Approve,
 * Always and Reject buttons. `ApprovalsView` decides when a card appears, settles and answers.
 *
 * @module
 */
import { count } from './count.js';
import { element, show, type DomButton, type DomElement, type DomEvent } from './dom.js';
import { approvalArguments, foldText, type ApprovalArgument } from '../../adapters/approval-arguments.js';
import { markInvisible } from '../../text/visible-text.js';
import type { WaitingApproval } from './client-imports.js';
import { label, showLong, visible } from './long-text.js';
import { StillSince } from './still-since.js';

/** What a card's buttons answer: once, always (for this command or path, in this conversation), or no. */
export type CardDecision = 'approve' | 'always' | 'reject';

/** One card and the state of its answer. */
export interface Card {
  readonly li: DomElement;
  readonly buttons: readonly DomButton[];
  readonly problem: DomElement;
  /** Its answer is on its way: its buttons stay disabled. */
  sending: boolean;
  /** When it appeared or last moved: its buttons take no click for `SETTLE_MS` after. */
  readonly still: StillSince;
  /** Enables its buttons once it has stood still. */
  settling: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The card of `approval`, not yet on the page; a click on one of its buttons calls `clicked`
 * with the decision that button sends. `now`: the clock of the events' `timeStamp`.
 */
export function approvalCard(
  approval: WaitingApproval,
  now: () => number,
  clicked: (card: Card, decision: CardDecision, click: DomEvent) => void,
): Card {
  const args = approvalArguments(approval.args);
  const li = element('li', 'approval');
  li.dataset.approvalId = approval.approvalId;
  li.dataset.callId = approval.callId;
  const who = element('div', 'who');
  show(who, `${markInvisible(label(approval.who))} wants to run ${markInvisible(label(approval.toolName))}:`);
  const subject = element('pre', 'subject');
  showLong(subject, visible(args.find((a) => a.main)?.text ?? ''));
  const details = element('div', 'arguments');
  details.append(...args.filter((a) => !a.main).map(argumentView));
  const reason = element('div', 'reason');
  showLong(reason, visible(approval.reason));
  const problem = element('div', 'error');
  problem.hidden = true;
  const row = element('div', 'buttons');
  const buttons = BUTTONS.map(([decision, label, title]) => {
    const button = element<DomButton>('button', decision);
    button.textContent = label;
    button.title = title;
    return button;
  });
  row.append(...buttons);
  li.append(who, subject, details, reason, row, problem);
  const card: Card = { li, buttons, problem, sending: false, still: new StillSince(li, now), settling: undefined };
  buttons.forEach((button, i) => button.addEventListener('click', (event) => clicked(card, BUTTONS[i]![0], event)));
  return card;
}

/**
 * One argument besides the subject, whole: a short one as it is; a long one (over
 * {@link FOLD_LINES} lines, or a very long line) folded to its start, with a "show all"
 * (`<details>`) holding every character. A human approves all of it, so all of it is there.
 */
function argumentView(argument: ApprovalArgument): DomElement {
  const view = element('div', 'argument');
  const name = element('div', 'name');
  const fold = foldText(argument.text, FOLD_LINES);
  const label = markInvisible(argument.name);
  show(name, fold.folded ? `${label} (${count(fold.lines)} lines, ${count(fold.chars)} characters):` : `${label}:`);
  const value = element('pre', fold.folded ? 'value preview' : 'value');
  show(value, fold.folded ? `${visible(fold.shown)}\n…` : visible(argument.text));
  view.append(name, value);
  if (fold.folded) {
    const all = element('details', 'all');
    const summary = element('summary', 'show-all');
    show(summary, 'show all');
    const full = element('pre', 'value full');
    show(full, visible(argument.text));
    all.append(summary, full);
    view.append(all);
  }
  return view;
}

/** The card's buttons: the decision each sends, its label, its tooltip. */
const BUTTONS: ReadonlyArray<readonly [CardDecision, string, string]> = [
  ['approve', 'Approve', 'Run this call once'],
  ['always', 'Always', 'Run it, and allow this exact command or path without asking for the rest of the conversation'],
  ['reject', 'Reject', 'Refuse this call; the agent is told'],
];

/** Lines of a long argument shown before "show all". */
const FOLD_LINES = 12;
