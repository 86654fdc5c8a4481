import type { Observable } from 'rxjs';
import type { AgentEvent } from '../../src/events/agent-event.js';

/** Everything an Observable did until it ended. */
export interface Collected<T> {
  readonly values: T[];
  /** The error it ended with, if it errored. */
  readonly error: unknown;
  readonly completed: boolean;
}

/** Subscribes and resolves once the source completes or errors (never rejects). */
export function collect<T>(source$: Observable<T>): Promise<Collected<T>> {
  return new Promise((resolve) => {
    const values: T[] = [];
    source$.subscribe({
      next: (value) => values.push(value),
      error: (error: unknown) => resolve({ values, error, completed: false }),
      complete: () => resolve({ values, error: undefined, completed: true }),
    });
  });
}

/** The `type` of each event, in order. */
export function typesOf(events: readonly AgentEvent[]): string[] {
  return events.map((event) => event.type);
}
