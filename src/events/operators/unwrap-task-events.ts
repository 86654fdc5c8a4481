import { map, type OperatorFunction } from 'rxjs';
import type { AgentEvent, TaskWrapEvent } from '../agent-event.js';

/** A `TaskWrap`'s fields without the wrapped event: which task, of which parent, carried it. */
export type TaskFrame = Omit<TaskWrapEvent, 'type' | 'event'>;

/** An event with every wrapper taken off, and the wrappers it came through, outermost first. */
export interface UnwrappedEvent {
  /** The event as its own run emitted it; never a `TaskWrap`. */
  readonly event: Exclude<AgentEvent, TaskWrapEvent>;
  /** Empty for the streamed run's own events; one frame per level of delegation otherwise. */
  readonly path: readonly TaskFrame[];
}

/**
 * Takes every wrapper off one event.
 *
 * @example
 * ```ts
 * const { event, path } = unwrapEvent(e);
 * if (event.type === 'RunEnd') console.log(path.length ? 'a task ended' : 'the run ended');
 * ```
 */
export function unwrapEvent(outer: AgentEvent): UnwrappedEvent {
  const path: TaskFrame[] = [];
  let event: AgentEvent = outer;
  while (event.type === 'TaskWrap') {
    const { type: _type, event: inner, ...frame } = event;
    path.push(frame);
    event = inner;
  }
  return { event, path };
}

/**
 * Maps each event of a stream to {@link UnwrappedEvent}: the real event plus its path of
 * task frames. The innermost frame (`path[path.length - 1]`) identifies the task that
 * produced the event; group tasks by its `parentRunId` and `taskId`, never by agent name.
 *
 * @example
 * ```ts
 * engine.stream(prompt).pipe(unwrapTaskEvents()).subscribe(({ event, path }) => {
 *   const who = path.map((f) => `${f.taskAgentName}#${f.taskIndex}`).join(' > ') || 'main';
 *   if (event.type === 'ReasonDelta') console.log(who, event.text);
 * });
 * ```
 */
export function unwrapTaskEvents(): OperatorFunction<AgentEvent, UnwrappedEvent> {
  return map(unwrapEvent);
}
