/**
 * The first item of a list that draws only its last entries (a task's tool calls, a
 * conversation's turns): a button that draws more before them, shown while some are not.
 *
 * @module
 */
import { count } from './count.js';
import { element, show, type DomElement, type DomEvent } from './dom.js';

/** The item and its button; `update` says how many entries are not drawn. */
export interface ShowEarlier {
  /** The list item holding the button: put it first in the list. */
  readonly item: DomElement;
  /** Shows how many entries are not drawn, `step` of them on the next click (hidden at 0). */
  readonly update: (notShown: number) => void;
}

/**
 * The "show earlier" item of a list of `noun` (`calls`, `turns`) drawing `step` more a click;
 * `onClick` draws them.
 *
 * @example
 * ```ts
 * const earlier = showEarlier('earlier-calls', 'calls', 200, () => draw(more));
 * earlier.update(4_800); // 'Show 200 earlier calls (4,800 not shown)'
 * ```
 */
export function showEarlier(className: string, noun: string, step: number, onClick: (event: DomEvent) => void): ShowEarlier {
  const item = element('li', className);
  const button = element('button', 'show-earlier');
  item.append(button);
  button.addEventListener('click', onClick);
  const update = (notShown: number): void => {
    show(button, notShown === 0 ? '' : `Show ${count(Math.min(notShown, step))} earlier ${noun} (${count(notShown)} not shown)`);
    item.hidden = notShown === 0;
  };
  return { item, update };
}
