/**
 * Whether a click on a button that just appeared, or moved, under a resting pointer is one the
 * user aimed at it. A card or a row drawn where the pointer rests takes the next click at once:
 * the second click of a double-click aimed at what was there before (a card already answered,
 * the tree before the cards pushed it down) would answer a call the user never saw. Such a
 * click is refused until the button has stood still {@link SETTLE_MS}.
 *
 * The time that counts is when the press began, on the page's own clock (`event.timeStamp`,
 * the clock of `performance.now()`): a pointer pressed on a button still settling and released
 * after it settled (Chromium sends `pointerdown` even to a disabled button, and then a click)
 * is refused too. A key's click (Enter or Space on a focused button, `detail` 0) begins when
 * it is sent.
 *
 * @module
 */
import type { DomElement, DomEvent } from './dom.js';

/**
 * How long a button that appeared or moved (a card above it went away, the cards' section
 * opened and pushed the page down) refuses clicks: longer than a double-click (500 ms at
 * most, the systems' default), short beside reading what the button will do.
 */
export const SETTLE_MS = 700;

/** When one button (or the buttons of one element) last appeared or moved, and whether a click on it counts. */
export class StillSince {
  #since: number;
  #pressedAt: number | undefined;

  /**
   * Starts as appearing now; listens to presses on `target` (the button, or an element holding it).
   *
   * @param now - the clock of the events' `timeStamp` (`performance.now`)
   */
  constructor(target: DomElement, private readonly now: () => number) {
    this.#since = now();
    target.addEventListener('pointerdown', (event) => void (this.#pressedAt = event.timeStamp ?? now()));
  }

  /** When it last appeared or moved. */
  get since(): number {
    return this.#since;
  }

  /** It appeared or moved just now. */
  moved(): void {
    this.#since = this.now();
  }

  /**
   * Whether `click` counts: its press began {@link SETTLE_MS} or more after the button last
   * appeared or moved, and after `alsoSince` (when what holds it moved).
   */
  takes(click: DomEvent, alsoSince = -Infinity): boolean {
    const at = click.timeStamp ?? this.now();
    const began = click.detail === 0 ? at : Math.min(at, this.#pressedAt ?? at);
    this.#pressedAt = undefined;
    return began >= Math.max(this.#since, alsoSince) + SETTLE_MS;
  }
}
