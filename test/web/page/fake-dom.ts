/**
 * The few parts of a browser document the page's views use (`src/web/page/dom.ts`), in
 * memory: enough to draw a view in Node and look at what it wrote. Not a DOM: no parsing,
 * no layout, no events beyond the ones a test fires with `click`.
 *
 * @module
 */
import type { DomElement, DomEvent } from '../../../src/web/page/dom.js';

/** One element: its text, flags, data and children, as the views set them. */
export class FakeElement implements DomElement {
  textContent: string | null = null;
  hidden = false;
  title = '';
  className = '';
  disabled = false;
  readonly style = { setProperty: (): void => undefined };
  readonly dataset: Record<string, string | undefined> = {};
  readonly classes = new Set<string>();
  readonly classList = { toggle: (token: string, force?: boolean): boolean => this.#toggle(token, force) };
  parentNode: FakeElement | null = null;
  readonly children: FakeElement[] = [];
  readonly #listeners = new Map<string, Array<(event: DomEvent) => void>>();

  constructor(readonly tagName: string) {}

  append(...nodes: DomElement[]): void {
    for (const node of nodes as FakeElement[]) {
      node.remove();
      node.parentNode = this;
      this.children.push(node);
    }
  }

  replaceChildren(...nodes: DomElement[]): void {
    for (const child of [...this.children]) child.remove();
    this.append(...nodes);
  }

  remove(): void {
    const siblings = this.parentNode?.children;
    if (siblings !== undefined) siblings.splice(siblings.indexOf(this), 1);
    this.parentNode = null;
  }

  addEventListener(type: string, listener: (event: DomEvent) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  /** Fires a click on this element only (no bubbling: the views listen where they are clicked). */
  click(): void {
    for (const listener of this.#listeners.get('click') ?? []) listener({ preventDefault: () => undefined, stopPropagation: () => undefined });
  }

  /** The first element below this one with `className` among its classes, depth first. */
  find(className: string): FakeElement | undefined {
    for (const child of this.children) {
      if (child.className.split(' ').includes(className)) return child;
      const found = child.find(className);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  #toggle(token: string, force?: boolean): boolean {
    const on = force ?? !this.classes.has(token);
    if (on) this.classes.add(token);
    else this.classes.delete(token);
    return on;
  }
}

/** A document whose `createElement` makes {@link FakeElement}s: what `globalThis.document` is for a view drawn in Node. */
export const fakeDocument = {
  createElement: (tag: string): FakeElement => new FakeElement(tag),
};
