/**
 * Subscribes to a run and keeps what it emits, for tests that look at the order of events
 * or stop a run part-way.
 *
 * @module
 */
import type { Observable, Subscription } from 'rxjs';
import type { AgentEvent, EventOfType, TaskWrapEvent } from '../../src/events/agent-event.js';

/** A live recording of one subscription. */
export interface EventRecording<T = AgentEvent> {
  readonly events: T[];
  /** Settles when the stream completes or errors (never rejects: see `error`). */
  readonly done: Promise<void>;
  readonly subscription: Subscription;
  /** The stream's error, once it errored. */
  error?: unknown;
  completed: boolean;
}

/** Subscribes now and records every value, the error and completion. */
export function record<T = AgentEvent>(source$: Observable<T>): EventRecording<T> {
  let settle!: () => void;
  const done = new Promise<void>((resolve) => (settle = resolve));
  const recording = { events: [] as T[], done, completed: false } as { -readonly [K in keyof EventRecording<T>]: EventRecording<T>[K] };
  recording.subscription = source$.subscribe({
    next: (event) => recording.events.push(event),
    error: (error: unknown) => {
      recording.error = error;
      settle();
    },
    complete: () => {
      recording.completed = true;
      settle();
    },
  });
  return recording;
}

/** Every event of a stream that completes; rejects if it errors. */
export async function collect(source$: Observable<AgentEvent>): Promise<AgentEvent[]> {
  const recording = record(source$);
  await recording.done;
  if (recording.error !== undefined) throw recording.error;
  return recording.events;
}

/** The `TaskWrap`s of a stream (the outer ones). */
export function wraps(events: readonly AgentEvent[]): TaskWrapEvent[] {
  return events.filter((e): e is TaskWrapEvent => e.type === 'TaskWrap');
}

/** The stream's own (unwrapped) events of one type. */
export function own<T extends AgentEvent['type']>(events: readonly AgentEvent[], type: T): EventOfType<T>[] {
  return events.filter((e): e is EventOfType<T> => e.type === type);
}
