/**
 * The background tasks running in an engine, by conversation: their ids (few), so a
 * forgotten conversation finds its own fast; how many each conversation has running, for
 * the runner's bound (asked at every start, so answered in O(1)); and the forgotten
 * conversations that still have some running, and how many of those are orphaned.
 *
 * Counts are kept only above zero, so the maps hold the few conversations that have some:
 * a deleted conversation's id (whose tasks were stopped first) is free for a new one.
 *
 * @example
 * ```ts
 * const running = new RunningBackground();
 * running.add('task-1', 'session-a');
 * running.of('session-a'); // 1
 * running.remove('task-1', 'session-a'); // true
 * ```
 */
export class RunningBackground {
  private readonly ids = new Set<string>();
  private readonly perSession = new Map<string, number>();
  private readonly forgottenRunning = new Map<string, number>();

  /** Counts a background task that starts (or starts again) in its conversation. */
  add(taskId: string, sessionId: string): void {
    this.ids.add(taskId);
    count(this.perSession, sessionId, 1);
  }

  /** Uncounts a task that settled; false when it was not a running background task. */
  remove(taskId: string, sessionId: string): boolean {
    if (!this.ids.delete(taskId)) return false;
    count(this.perSession, sessionId, -1);
    return true;
  }

  /** Ids of the background tasks running now, oldest first. */
  get taskIds(): ReadonlySet<string> {
    return this.ids;
  }

  /** How many background tasks of a conversation are running now. */
  of(sessionId: string): number {
    return this.perSession.get(sessionId) ?? 0;
  }

  /** Moves the count of a forgotten conversation's running orphaned tasks by one. */
  countOrphan(sessionId: string, by: 1 | -1): void {
    count(this.forgottenRunning, sessionId, by);
  }

  /** True while a forgotten conversation has orphaned tasks running: one it starts meanwhile is orphaned too. */
  isForgotten(sessionId: string): boolean {
    return this.forgottenRunning.has(sessionId);
  }
}

/** Moves a conversation's count by one, keeping only counts above zero (a map of the few that have some). */
function count(counts: Map<string, number>, sessionId: string, by: 1 | -1): void {
  const now = (counts.get(sessionId) ?? 0) + by;
  if (now > 0) counts.set(sessionId, now);
  else counts.delete(sessionId);
}
