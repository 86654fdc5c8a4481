/**
 * The few parts of the browser's DOM the demo page uses, typed here. The project compiles
 * against Node's types only: the DOM library's stream types clash with Node's (they break
 * `src/model/read-sse.ts`), so the page names what it needs instead of loading them all.
 *
 * @module
 */
import type { InputSource } from './user-input-gate.js';

/** An event handed to a listener. */
export interface DomEvent {
  preventDefault(): void;
  /** Keeps the event from the enclosing elements' listeners (a button inside a clickable row). */
  stopPropagation(): void;
  /** When it happened, on the clock of `performance.now()` (a browser's events all say; the tests' in-memory ones may not). */
  readonly timeStamp?: number;
  /** A click's count of presses: 0 for one a key made (Enter or Space on a focused button). */
  readonly detail?: number;
}

/** An element, as far as the page uses one. */
export interface DomElement {
  textContent: string | null;
  hidden: boolean;
  /** The tooltip. */
  title: string;
  /** Inline style, set through the CSSOM (which the page's CSP allows). */
  readonly style: { setProperty(name: string, value: string): void };
  className: string;
  readonly dataset: Record<string, string | undefined>;
  readonly classList: { toggle(token: string, force?: boolean): boolean };
  readonly parentNode: unknown;
  append(...nodes: DomElement[]): void;
  replaceChildren(...nodes: DomElement[]): void;
  remove(): void;
  addEventListener(type: string, listener: (event: DomEvent) => void): void;
}

/** A `<button>`. */
export interface DomButton extends DomElement {
  disabled: boolean;
}

/** An `<input>`. */
export interface DomInput extends DomElement {
  value: string;
}

interface Browser extends InputSource {
  readonly document: {
    readonly body: DomElement;
    getElementById(id: string): DomElement | null;
    createElement(tag: string): DomElement;
  };
  readonly location: { readonly href: string; readonly search: string; readonly hostname: string };
  readonly history: { replaceState(data: null, unused: string, url: string): void };
  requestAnimationFrame(callback: () => void): number;
  /** Calls back, after layout, with the observed elements whose size changed. */
  readonly ResizeObserver: new (callback: (entries: ReadonlyArray<{ readonly target: DomElement }>) => void) => { observe(target: DomElement): void };
  readonly performance: { now(): number };
}

/** The page's window (the global object of a browser). */
export const browser = globalThis as unknown as Browser;

/** The element with this id; the page's HTML has every one it asks for. */
export function byId<T extends DomElement = DomElement>(id: string): T {
  const found = browser.document.getElementById(id);
  if (found === null) throw new Error(`the page has no element #${id}`);
  return found as T;
}

/** A new element with a class. */
export function element<T extends DomElement = DomElement>(tag: string, className: string): T {
  const created = browser.document.createElement(tag);
  created.className = className;
  return created as T;
}

/** Sets text only when it changed (`textContent`: model output is never parsed as HTML); empty hides the element. */
export function show(target: DomElement, text: string): void {
  if (target.textContent !== text) target.textContent = text;
  target.hidden = text === '';
}
