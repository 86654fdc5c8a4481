/**
 * Whether the page has seen its user act on it since it loaded: the page's defence against
 * double-clickjacking. A page of another site can, on the first click of a "double-click"
 * it asks for, navigate this very tab to the page (with `?prompt=` of its choosing, or on a
 * conversation); the page loads in less than a double-click's interval, and the second
 * click lands on Run or Approve. Frame headers do not help: there is no frame.
 *
 * The defence is the one proposed with the attack (Paulos Yibelo, 2024): the buttons that
 * act stay inert until the user has really acted on this page. A click alone proves
 * nothing: the attacker asked for it. What counts:
 *
 * - a key pressed on the page (not a held key's repeat), e.g. typing a prompt, or Tab;
 * - a mouse or pen really moved over it, {@link ARM_TRAVEL_PX} CSS pixels in all, counted
 *   between the positions of the moves the page itself saw, from the first: a pointer resting
 *   where a new page appeared brings one move at most, and the tremor between the two clicks
 *   of a double-click stays below it. The browser's own moves (hover updates after a load or
 *   a scroll, with no `movementX`/`movementY`) count for nothing. The size of `movementX`
 *   is not trusted: Chromium gives the first move of a new page the whole distance from its
 *   corner, as if the pointer had come from there;
 * - on a touch screen (no hover, so no moves): a touch at least {@link TOUCH_ARM_MS} before
 *   the click, longer than a double tap.
 *
 * Keys, moves and touches count only from {@link SETTLE_MS} after the page appeared (loaded,
 * or shown again): a page of another site can ask for "click 1, then click 2" with its second
 * button where Run will be, and the hand's way to it, over this page, is no input of the
 * user's for this page; nor is a double tap's second tap, or a tap of a "tap, tap, tap" in
 * the page's first moments. A touch that had not yet armed the page when it was hidden starts
 * nothing when it is shown again.
 *
 * What the gate cannot tell apart: a trap that asks for a wait, "click 1 (the tab comes
 * here), wait a second, click 3 on the green button" with button 3 where Run is. The hand
 * then travels over this page after it settled and comes to rest on Run, as a user's own
 * does. No rule on the pointer's way (it must enter the very button after the page settled,
 * end its travel there, rest on it before the press) is one the trap's user breaks and a
 * real user keeps: "go to the button, stop, press" is what both do, a rest long enough to be
 * more than a quick click's refuses ordinary clicks, and the trap may ask for any rest ("hold
 * the pointer there until it turns green"). Only the user's eyes part them,
 * and the wait is what gives the eyes the page. What such a trap wins is bounded elsewhere:
 * another site's `?prompt=` is dropped (the box holds the default prompt) and it can guess
 * no run's or conversation's address, so no approval card of the user's.
 *
 * @module
 */

/** CSS pixels a mouse or pen must travel over the page before its clicks act: above a double-click's tremor (a few pixels), below any reach for a button. */
export const ARM_TRAVEL_PX = 16;
/** Milliseconds after a first touch before a tap acts: longer than a double tap (about 300 ms), short for a user who taps again. */
export const TOUCH_ARM_MS = 600;
/**
 * Milliseconds after the page appeared before keys, pointer moves and touches count: longer than a
 * double-click (500 ms at most, the systems' default) and than a hand's reach from a first
 * button to a second near it (a few hundred ms), short beside a user reading the page before
 * acting on it.
 */
export const SETTLE_MS = 800;

/** The parts of a keyboard or pointer event the gate reads. */
export interface GateEvent {
  /** False for an event a script dispatched. */
  readonly isTrusted: boolean;
  /** A key held down, repeating. */
  readonly repeat?: boolean;
  /** `mouse`, `pen` or `touch`. */
  readonly pointerType?: string;
  /** How far the pointer moved, as the browser says: 0 and 0 for a move of its own (a hover update). */
  readonly movementX?: number;
  readonly movementY?: number;
  /** Where the pointer is on the screen (unlike `clientX`, it stays put when the page scrolls under it). */
  readonly screenX?: number;
  readonly screenY?: number;
  /** Milliseconds since the page's time origin. */
  readonly timeStamp: number;
}

/** Where the gate listens: the window (capture, so no handler of the page hides an event from it). */
export interface InputSource {
  addEventListener(type: string, listener: (event: GateEvent) => void, options: { readonly capture: boolean; readonly passive: boolean }): void;
}

/** Says, on each activation of a button that acts, whether the user has acted on the page yet. */
export class UserInputGate {
  #armed = false;
  #travel = 0;
  #at: { readonly x: number; readonly y: number } | undefined;
  #firstTouch: number | undefined;
  /** When keys, moves and touches start to count. */
  #settled: number;

  /**
   * Listens on `source` from now on: call it as the page loads.
   *
   * @param now - the clock of the events' `timeStamp` (`performance.now`)
   */
  constructor(source: InputSource, private readonly now: () => number) {
    this.#settled = now() + SETTLE_MS;
    const options = { capture: true, passive: true } as const;
    source.addEventListener('keydown', (event) => {
      if (event.isTrusted && event.repeat !== true && this.#counts(event)) this.#armed = true;
    }, options);
    source.addEventListener('visibilitychange', () => {
      // shown again (or hidden): the page appears anew under the user's hand
      this.#settled = now() + SETTLE_MS;
      this.#at = undefined;
      // a touch that already armed the page stays the user's; one still waiting starts nothing
      if (this.allows()) this.#armed = true;
      this.#firstTouch = undefined;
    }, options);
    source.addEventListener('pointermove', (event) => this.#moved(event), options);
    source.addEventListener('pointerdown', (event) => {
      // not a tap of the page's first moments: a double tap's second, or the one that brought the tab here
      if (event.isTrusted && event.pointerType === 'touch' && this.#counts(event)) this.#firstTouch ??= event.timeStamp;
    }, options);
  }

  /** Adds the way a mouse or pen went since the page last saw it move; the first position counts nothing. */
  #moved(event: GateEvent): void {
    if (!event.isTrusted || event.pointerType === 'touch' || event.screenX === undefined || event.screenY === undefined) return;
    if (!event.movementX && !event.movementY) return; // the browser's own move: the pointer stayed
    if (!this.#counts(event)) return; // the way to a button of the page that was here before
    const at = { x: event.screenX, y: event.screenY };
    if (this.#at) this.#travel += Math.abs(at.x - this.#at.x) + Math.abs(at.y - this.#at.y);
    this.#at = at;
    if (this.#travel >= ARM_TRAVEL_PX) this.#armed = true;
  }

  /** Whether an event came late enough after the page appeared to be meant for it. */
  #counts(event: GateEvent): boolean {
    return event.timeStamp >= this.#settled;
  }

  /** Whether an activation (a click, a submit) now is the user's own. */
  allows(): boolean {
    return this.#armed || (this.#firstTouch !== undefined && this.now() - this.#firstTouch >= TOUCH_ARM_MS);
  }
}

/** What the page says where it refused a click that came before any input of the user's (Run's status line, an approval card). */
export const NOT_YET =
  "This click was not taken: it came before any move or key of yours on this page, as a click aimed at another site's page would (double-clickjacking). Move the pointer over the page or press a key (Tab will do), then click again.";
