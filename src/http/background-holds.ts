import type { Subscription } from 'rxjs';
import type { HarnessEngine } from '../engine/harness-engine.js';

/** What holding a slot for background tasks needs of an engine; a custom `RunsEngine` may lack it (a slot is then free when its run settles). */
type TasksEngine = Partial<Pick<HarnessEngine, 'tasks'>>;

/** A started run's slot, as {@link BackgroundHolds.forRun} hands it out. */
export interface RunSlotHold {
  /** What `startHttpRun` calls when the run settles (or does not start). */
  readonly settled: () => void;
  /** Names the run's conversation once it started; its slot is given back or held from then on. */
  readonly started: (sessionId: string) => void;
}

/**
 * Keeps `maxRuns` true of background tasks (`task` with `background: true`), which outlive the
 * run that started them: a run's slot is given back when the run settles only if its
 * conversation has no background task running; else it stays taken until the last of them
 * (and of those they start) settles, or the engine closes. One slot per conversation: a
 * later run of a conversation that already holds one gives its own back, so a conversation
 * with a task in the background is not refused its next prompts. Each conversation's
 * background tasks are bounded by the engine's `maxBackgroundTasks`.
 *
 * @example
 * ```ts
 * const hold = holds.forRun(slots.take());
 * const run = await startHttpRun(engine, hold.settled, prompt, start, res);
 * if (run !== undefined) hold.started(run.sessionId);
 * ```
 */
export class BackgroundHolds {
  /** The conversations holding a slot for their background tasks, with its release. */
  readonly #held = new Map<string, () => void>();

  /** @param engine - the handler's engine; without `tasks` (a custom one) nothing is held */
  constructor(private readonly engine: object) {}

  /**
   * Wraps a run's slot. `settled` may come before `started` (a run over at once); the slot is
   * kept or given back once both are known. A start that fails calls `settled` only: the
   * caller gives the slot back itself (its release is idempotent).
   */
  forRun(release: () => void): RunSlotHold {
    let sessionId: string | undefined;
    let over = false;
    return {
      settled: () => {
        over = true;
        if (sessionId !== undefined) this.#keep(sessionId, release);
      },
      started: (id) => {
        sessionId = id;
        if (over) this.#keep(id, release);
      },
    };
  }

  /** Gives the slot back, unless it must stay held for the conversation's running background tasks. */
  #keep(sessionId: string, release: () => void): void {
    const { tasks } = this.engine as TasksEngine;
    if (tasks === undefined || this.#held.has(sessionId) || tasks.runningBackgroundOf(sessionId) === 0) return release();
    this.#held.set(sessionId, release);
    let subscription: Subscription | undefined;
    let freed = false;
    const free = (): void => {
      if (freed) return;
      freed = true;
      subscription?.unsubscribe();
      this.#held.delete(sessionId);
      release();
    };
    // The count moves before each snapshot is published, synchronously: no settle is missed.
    subscription = tasks.changes.subscribe({
      next: (info) => info.sessionId === sessionId && tasks.runningBackgroundOf(sessionId) === 0 && free(),
      complete: free, // the engine closed: its background tasks have settled
    });
    if (freed) subscription.unsubscribe();
  }
}
