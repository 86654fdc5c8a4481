import type { AgentEvent } from '../events/agent-event.js';

/** How much of its events one running background task keeps before it stops keeping its deltas (see {@link TaskEventLog}). */
export const RUNNING_TASK_EVENT_BYTES = 8 * 1024 * 1024;

// A delta is counted by its text plus about what its other fields cost.
const DELTA_OVERHEAD = 64;

/**
 * The events of one background task (nobody streams them; `engine.tasks.events(taskId)`
 * reads them), with what they weigh: the length of their JSON, in UTF-16 units, roughly their
 * size in memory. Bounded while the task runs: past `runningBytes` its text and thinking
 * deltas are no longer kept (a `Warning` says so once), the other events (a few per step)
 * are. When the task finishes, {@link TaskEventLog.compact} drops its answer-text deltas,
 * whose text every step's `ReasonEnd` holds whole.
 *
 * @example
 * ```ts
 * const log = new TaskEventLog();
 * log.push(event);
 * log.compact(); // the task finished
 * log.bytes; // what it still weighs
 * ```
 */
export class TaskEventLog {
  #events: AgentEvent[] = [];
  #bytes = 0;
  #cut = false;

  constructor(private readonly runningBytes = RUNNING_TASK_EVENT_BYTES) {}

  /** The events kept, in order. */
  get events(): readonly AgentEvent[] {
    return this.#events;
  }

  /** What the kept events weigh (their JSON's length, deltas estimated). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Keeps an event of the running task, unless it is a delta and the log is full. */
  push(event: AgentEvent): void {
    const inner = innermost(event);
    if (inner.type === 'ReasonDelta' && this.#bytes > this.runningBytes) {
      if (!this.#cut) {
        this.#cut = true;
        const message = `this background task's events passed ${this.runningBytes} bytes; its text and thinking deltas are no longer kept (each step's ReasonEnd still has its text)`;
        this.#add({ type: 'Warning', runId: inner.runId, agentName: inner.agentName, code: 'task-events-cut', message });
      }
      return;
    }
    this.#add(event);
  }

  /** The task finished: its answer-text deltas go (each step's `ReasonEnd` has the whole text). */
  compact(): void {
    const kept = this.#events.filter((e) => {
      const inner = innermost(e);
      return inner.type !== 'ReasonDelta' || inner.kind !== 'text';
    });
    if (kept.length === this.#events.length) return;
    this.#events = kept;
    this.#bytes = kept.reduce((sum, e) => sum + weight(e), 0);
  }

  #add(event: AgentEvent): void {
    this.#events.push(event);
    this.#bytes += weight(event);
  }
}

/**
 * What an event weighs in a retained log: a delta by its text (measuring each of thousands
 * with JSON would cost more than keeping them), anything else by its JSON's length.
 */
export function weight(event: AgentEvent): number {
  const inner = innermost(event);
  if (inner.type === 'ReasonDelta') return inner.text.length + DELTA_OVERHEAD;
  try {
    return JSON.stringify(event).length;
  } catch {
    return DELTA_OVERHEAD; // a tool's event that JSON cannot say (a cycle): small, its fields are ours to bound
  }
}

function innermost(event: AgentEvent): AgentEvent {
  let inner = event;
  while (inner.type === 'TaskWrap') inner = inner.event;
  return inner;
}
