import { element, show, type DomButton, type DomElement } from './dom.js';
import { foldText, type ApprovalArgument } from '../../adapters/approval-arguments.js';
import type { PendingApproval } from './page-tree.js';

/** Answers one approval; rejects with a message to show when the server refuses. */
export type AnswerApproval = (approval: PendingApproval, decision: 'approve' | 'reject') => Promise<void>;

interface Card {
  readonly li: DomElement;
  readonly approve: DomButton;
  readonly reject: DomButton;
  readonly problem: DomElement;
}

/**
 * The calls waiting for a human, one card each with Approve and Reject. A card stays until
 * the run says the call was decided (here, in another tab, or by a cancel), so every page
 * attached to the run shows the same; a click only disables its buttons meanwhile.
 */
export class ApprovalsView {
  readonly #cards = new Map<string, Card>();

  constructor(
    private readonly section: DomElement,
    private readonly list: DomElement,
    private readonly answer: AnswerApproval,
  ) {}

  /** Shows exactly the waiting calls. */
  draw(waiting: ReadonlyMap<string, PendingApproval>): void {
    for (const [key, card] of this.#cards) {
      if (waiting.has(key)) continue;
      card.li.remove();
      this.#cards.delete(key);
    }
    for (const approval of waiting.values()) if (!this.#cards.has(approval.approvalId)) this.#add(approval);
    this.section.hidden = this.#cards.size === 0;
  }

  #add(approval: PendingApproval): void {
    const li = element('li', 'approval');
    li.dataset.approvalId = approval.approvalId;
    li.dataset.callId = approval.callId;
    const who = element('div', 'who');
    show(who, `${approval.who} wants to run ${approval.toolName}:`);
    const subject = element('pre', 'subject');
    show(subject, approval.subject);
    const details = element('div', 'arguments');
    details.append(...approval.details.map(argumentView));
    const reason = element('div', 'reason');
    show(reason, approval.reason);
    const approve = element<DomButton>('button', 'approve');
    approve.textContent = 'Approve';
    const reject = element<DomButton>('button', 'reject');
    reject.textContent = 'Reject';
    const problem = element('div', 'error');
    problem.hidden = true;
    const buttons = element('div', 'buttons');
    buttons.append(approve, reject);
    li.append(who, subject, details, reason, buttons, problem);
    const card: Card = { li, approve, reject, problem };
    approve.addEventListener('click', () => this.#decide(card, approval, 'approve'));
    reject.addEventListener('click', () => this.#decide(card, approval, 'reject'));
    this.#cards.set(approval.approvalId, card);
    this.list.append(li);
  }

  #decide(card: Card, approval: PendingApproval, decision: 'approve' | 'reject'): void {
    card.approve.disabled = card.reject.disabled = true;
    show(card.problem, '');
    this.answer(approval, decision).catch((error: unknown) => {
      card.approve.disabled = card.reject.disabled = false;
      show(card.problem, `Could not send the answer: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
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
  show(name, fold.folded ? `${argument.name} (${fold.lines} lines, ${fold.chars} characters):` : `${argument.name}:`);
  const value = element('pre', fold.folded ? 'value preview' : 'value');
  show(value, fold.folded ? `${fold.shown}\n…` : argument.text);
  view.append(name, value);
  if (fold.folded) {
    const all = element('details', 'all');
    const summary = element('summary', 'show-all');
    show(summary, 'show all');
    const full = element('pre', 'value full');
    show(full, argument.text);
    all.append(summary, full);
    view.append(all);
  }
  return view;
}

/** Lines of a long argument shown before "show all". */
const FOLD_LINES = 12;
