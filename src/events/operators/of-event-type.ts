import { filter, type OperatorFunction } from 'rxjs';
import type { AgentEvent, AgentEventType, EventOfType } from '../agent-event.js';

/**
 * Keeps the unwrapped events of the given types, narrowed to their interfaces. Children's
 * events stay inside their `TaskWrap`s; pipe through {@link unwrapTaskEvents} first to see
 * every agent's events.
 *
 * @example
 * ```ts
 * engine.stream('hi').pipe(ofEventType('ReasonDelta')).subscribe((d) => process.stdout.write(d.text));
 * ```
 */
export function ofEventType<T extends AgentEventType>(
  ...types: readonly T[]
): OperatorFunction<AgentEvent, EventOfType<T>> {
  const wanted: ReadonlySet<AgentEventType> = new Set(types);
  return filter((event): event is EventOfType<T> => wanted.has(event.type));
}
