import type { AgentEvent } from '../../events/index.js';

/**
 * The type of the event inside every `TaskWrap`, found without allocating (unlike
 * `unwrapEvent`, which builds the frame path): the tree's views ask it of every delta.
 *
 * @example
 * ```ts
 * if (innerType(event) === 'ReasonDelta') return; // a delta, however deeply wrapped
 * ```
 */
export function innerType(event: AgentEvent): AgentEvent['type'] {
  let inner = event;
  while (inner.type === 'TaskWrap') inner = inner.event;
  return inner.type;
}
