import { browser, show, type DomElement, type DomEvent } from './dom.js';
import type { WaitingApproval } from './client-imports.js';
import { SETTLE_MS } from './still-since.js';
import { approvalCard, type Card, type CardDecision } from './approval-card.js';

export { SETTLE_MS };
export type { CardDecision };

/** Answers one approval; rejects with a message to show when the server refuses. */
export type AnswerApproval = (approval: WaitingApproval, decision: CardDecision) => Promise<void>;

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
    const card = approvalCard(approval, this.now, (clicked, decision, event) => this.#decide(clicked, approval, decision, event));
    this.#cards.set(approval.approvalId, card);
    this.list.append(card.li);
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

/** What a card says of a click pressed before it had stood still. */
const UNSETTLED = 'This click was not taken: the card had just appeared or moved under the pointer. Read it, then click again.';
