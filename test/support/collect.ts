import type { Observable } from 'rxjs';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { record } from './collect-events.js';

/** Everything an Observable did until it ended. */
export interface Collected<T> {
  readonly values: T[];
  /** The error it ended with, if it errored. */
  readonly error: unknown;
  readonly completed: boolean;
}

/**
 * Subscribes and resolves with how the source ended: its values, and whether it completed or
 * with which error (never rejects). Unlike `collect` (collect-events.ts), which resolves with
 * the events of a stream that must complete.
 */
export async function outcomeOf<T>(source$: Observable<T>): Promise<Collected<T>> {
  const recording = record(source$);
  await recording.done;
  return { values: recording.events, error: recording.error, completed: recording.completed };
}

/** The `type` of each event, in order. */
export function typesOf(events: readonly AgentEvent[]): string[] {
  return events.map((event) => event.type);
}
