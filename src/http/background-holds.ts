import type { Subscription } from 'rxjs';
import type { HarnessEngine } from '../engine/harness-engine.js';
import type { RunHandle } from '../runs/run-registry.js';

/** What holding a slot for background tasks needs of an engine; a custom engine may lack it (a slot is then free when its run settles). */
type TasksEngine = Partial<Pick<HarnessEngine, 'tasks'>>;
type Tasks = HarnessEngine['tasks'];

/**
 * The conversations holding a slot for their background tasks, per engine (its task tracker):
 * one slot per conversation, whichever handler (runs, AG-UI, chat, A2A) its runs came through,
 * so handlers sharing one `maxRuns` (as `rxharness serve`'s do) count it once.
 */
const heldBy = new WeakMap<Tasks, Set<string>>();

/**
 * Keeps `maxRuns` true of background tasks (`task` with `background: true`), which outlive the
 * run that started them: a started run's slot (`release`) is given back when the run settles
 * only if its conversation has no background task running; else it stays taken until the last
 * of them (and of those they start) settles, or the engine closes. One slot per conversation:
 * a later run of a conversation that already holds one gives its own back, so a conversation
 * with a task in the background is not refused its next prompts. Each conversation's
 * background tasks are bounded by the engine's `maxBackgroundTasks`. Every handler's start
 * goes through this (`startHttpRun`, `startA2ARun`).
 *
 * @example
 * ```ts
 * const run = engine.start(prompt, { sessionId });
 * holdSlotPastRun(engine, run, slots.take());
 * ```
 */
export function holdSlotPastRun(engine: object, run: Pick<RunHandle, 'sessionId' | 'result'>, release: () => void): void {
  const settled = (): void => keep(engine, run.sessionId, release);
  run.result.then(settled, settled);
}

/** Gives the slot back, unless it must stay held for the conversation's running background tasks. */
function keep(engine: object, sessionId: string, release: () => void): void {
  const { tasks } = engine as TasksEngine;
  if (tasks === undefined || tasks.runningBackgroundOf(sessionId) === 0) return release();
  let held = heldBy.get(tasks);
  if (held === undefined) heldBy.set(tasks, (held = new Set()));
  if (held.has(sessionId)) return release();
  const conversations = held;
  conversations.add(sessionId);
  let subscription: Subscription | undefined;
  let freed = false;
  const free = (): void => {
    if (freed) return;
    freed = true;
    subscription?.unsubscribe();
    conversations.delete(sessionId);
    release();
  };
  // The count moves before each snapshot is published, synchronously: no settle is missed.
  subscription = tasks.changes.subscribe({
    next: (info) => info.sessionId === sessionId && tasks.runningBackgroundOf(sessionId) === 0 && free(),
    complete: free, // the engine closed: its background tasks have settled
  });
  if (freed) subscription.unsubscribe();
}
