import { browser, element, show, type DomButton, type DomElement, type DomEvent } from './dom.js';
import { approvalArguments, foldText, type ApprovalArgument } from '../../adapters/approval-arguments.js';
import { markInvisible, visibleLines } from '../../text/visible-text.js';
import type { WaitingApproval } from './client-imports.js';
import { label, showLong } from './long-text.js';
import { SETTLE_MS, StillSince } from './still-since.js';

export { SETTLE_MS };

/** What a card's buttons answer: once, always (for this command or path, in this conversation), or no. */
export type CardDecision = 'approve' | 'always' | 'reject';

/** Answers one approval; rejects with a message to show when the server refuses. */
export type AnswerApproval = (approval: WaitingApproval, decision: CardDecision) => Promise<void>;

interface Card {
  readonly li: DomElement;
  readonly buttons: readonly DomButton[];
  readonly problem: DomElement;
  /** Its answer is on its way: its buttons stay disabled. */
  sending: boolean;
  /** When it appeared or last moved: its buttons take no click for {@link SETTLE_MS} after. */
  readonly still: StillSince;
  /** Enables its buttons once it has stood still. */
  settling: ReturnType<typeof setTimeout> | undefined;
}

/**
 * The calls waiting for a human, one card each with Approve, Always and Reject, each card
 * answering its own approval by its id. What will run is shown as it will run, as the
 * terminal's question shows it: every character that renders as nothing or turns text
 * around (a bidi override in a path, a zero-width space, a `\r`) is marked as `<U+XXXX>`,
 * so the card never reads as another call than the one Approve runs. A card stays until the
 * run says the call was decided (here, in another tab, or by a cancel), so every page
 * attached to the run shows the same; a click only disables its buttons meanwhile. A card
 * that appears (the first one opens the section and pushes the page down) or moves (a card
 * above it went away: decided, timed out, cancelled) appears under a resting pointer: its
 * buttons take no click for {@link SETTLE_MS}, so the second click of a double-click aimed
 * at what was there before answers nothing (`StillSince`).
 */
export class ApprovalsView {
  readonly #cards = new Map<string, Card>();

  constructor(
    private readonly section: DomElement,
    private readonly list: DomElement,
    private readonly answer: AnswerApproval,
    /** Whether a click now is the user's own (see `UserInputGate`); a refused one sends nothing and says why. */
    private readonly allows: () => boolean = () => true,
    private readonly refused = '',
    /** The clock of the events' `timeStamp`. */
    private readonly now: () => number = () => browser.performance.now(),
  ) {}

  /** Shows exactly the waiting calls. */
  draw(waiting: readonly WaitingApproval[]): void {
    const ids = new Set(waiting.map((approval) => approval.approvalId));
    let moved = false;
    for (const [key, card] of this.#cards) {
      if (ids.has(key)) continue;
      card.li.remove();
      clearTimeout(card.settling);
      this.#cards.delete(key);
      moved = true;
    }
    // the cards left move up under the pointer
    if (moved) this.moved();
    for (const approval of waiting) if (!this.#cards.has(approval.approvalId)) this.#settle(this.#add(approval));
    this.section.hidden = this.#cards.size === 0;
  }

  /** Every card just moved under the pointer (what is above them changed size): their buttons wait {@link SETTLE_MS} again. */
  moved(): void {
    for (const card of this.#cards.values()) this.#settle(card);
  }

  /** Disables the card's buttons for {@link SETTLE_MS}: it just appeared or moved; clicks pressed before then are refused too. */
  #settle(card: Card): void {
    card.still.moved();
    for (const button of card.buttons) button.disabled = true;
    clearTimeout(card.settling);
    card.settling = setTimeout(() => {
      if (!card.sending) for (const button of card.buttons) button.disabled = false;
    }, SETTLE_MS);
  }

  #add(approval: WaitingApproval): Card {
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
    const card: Card = { li, buttons, problem, sending: false, still: new StillSince(li, this.now), settling: undefined };
    buttons.forEach((button, i) => button.addEventListener('click', (event) => this.#decide(card, approval, BUTTONS[i]![0], event)));
    this.#cards.set(approval.approvalId, card);
    this.list.append(li);
    return card;
  }

  #decide(card: Card, approval: WaitingApproval, decision: CardDecision, click: DomEvent): void {
    if (!card.still.takes(click)) return show(card.problem, UNSETTLED);
    if (!this.allows()) return show(card.problem, this.refused);
    for (const button of card.buttons) button.disabled = true;
    card.sending = true;
    show(card.problem, '');
    this.answer(approval, decision).catch((error: unknown) => {
      card.sending = false;
      for (const button of card.buttons) button.disabled = false;
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
  const label = markInvisible(argument.name);
  show(name, fold.folded ? `${label} (${fold.lines} lines, ${fold.chars} characters):` : `${label}:`);
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

/** `text` with its line breaks kept and every other invisible or misleading character marked (`visibleLines`). */
function visible(text: string): string {
  return visibleLines(text).join('\n');
}

/** The card's buttons: the decision each sends, its label, its tooltip. */
const BUTTONS: ReadonlyArray<readonly [CardDecision, string, string]> = [
  ['approve', 'Approve', 'Run this call once'],
  ['always', 'Always', 'Run it, and allow this exact command or path without asking for the rest of the conversation'],
  ['reject', 'Reject', 'Refuse this call; the agent is told'],
];

/** What a card says of a click pressed before it had stood still. */
const UNSETTLED = 'This click was not taken: the card had just appeared or moved under the pointer. Read it, then click again.';

/** Lines of a long argument shown before "show all". */
const FOLD_LINES = 12;
