import type { AgentEvent } from '../events/agent-event.js';
import type { ToolContext } from '../tools/tool.js';

/** The unchecked emit of each tool context the run loop made (see {@link trustedEmit}). */
const trusted = new WeakMap<ToolContext, (event: AgentEvent) => void>();

/** Notes the unchecked emit of a context the run loop made. */
export function trustEmit(context: ToolContext, emit: (event: AgentEvent) => void): void {
  trusted.set(context, emit);
}

/**
 * The emit the harness's own tools use (delegation: every wrapped child event): the run's
 * own delivery, without the check and copy that `context.emit` makes of what a user's tool
 * emits (an event whose `type` is a getter must not become a second `RunEnd`); those events
 * are built by the harness, so the copy would only cost. A context the run loop did not make
 * (a test's, a hand-built one) gets its own `emit`. Not exported from the package: a user's
 * tool cannot reach it.
 *
 * @example
 * ```ts
 * const emit = trustedEmit(context);
 * emit(wrap(childEvent));
 * ```
 */
export function trustedEmit(context: ToolContext): (event: AgentEvent) => void {
  return trusted.get(context) ?? context.emit;
}
