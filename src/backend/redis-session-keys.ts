/**
 * The keys of sessions and conversations: a session's messages, archive, summary, lease and
 * grants, a task's owner, the tasks a conversation started and the marks of deleted ones. The
 * base of `RedisKeys` (redis-keys.ts), which holds the prefix every key and channel goes under.
 *
 * @module
 */

/** The names of a backend's session keys, under {@link RedisSessionKeys.prefix}. */
export class RedisSessionKeys {
  /** Put before every key and channel, so several deployments (or tests) can share a server. */
  constructor(readonly prefix: string) {}

  /** A session's messages (a list of JSON texts). */
  session(id: string): string {
    return `${this.prefix}:session:${id}`;
  }

  /** Every session written, scored by its last write (epoch ms): what `list()` reads; expired ones are pruned there. */
  sessionIndex(): string {
    return `${this.prefix}:sessions`;
  }

  /** A conversation's summary for `list()` (a hash: `title`), kept with its session; task sessions have none. */
  sessionSummary(sessionId: string): string {
    return `${this.prefix}:summary:${sessionId}`;
  }

  /** The lease of the run that holds a session (its value: the run's id), see redis-session-lease.ts. */
  claim(sessionId: string): string {
    return `${this.prefix}:claim:${sessionId}`;
  }

  /** A compacted session's archive: the messages its compactions replaced (a list of JSON texts). */
  archive(sessionId: string): string {
    return `${this.prefix}:archive:${sessionId}`;
  }

  /** How many of a compacted session's messages its archive accounts for (a number). */
  archived(sessionId: string): string {
    return `${this.prefix}:archived:${sessionId}`;
  }

  /** Who owns a task session (JSON). */
  taskInfo(taskId: string): string {
    return `${this.prefix}:taskinfo:${taskId}`;
  }

  /** The ids of the tasks a conversation started (a set), so deleting it deletes them (kept `sessionTtlMs` after the conversation's last write or task start). */
  sessionTasks(sessionId: string): string {
    return `${this.prefix}:sessiontasks:${sessionId}`;
  }

  /**
   * Marks a task of a deleted conversation (kept `sessionTtlMs`): writes to its session, its
   * background result and the tasks it starts are refused, so a worker still running it when
   * the delete returned (a cancel is a message) brings nothing of it back.
   */
  deletedTask(taskId: string): string {
    return `${this.prefix}:deletedtask:${taskId}`;
  }

  /**
   * The event logs of a task's launches on workers (a set of log ids, each `<task>.<launch>`),
   * so deleting its conversation deletes them; kept as long as the newest of them can live.
   */
  taskLogs(taskId: string): string {
    return `${this.prefix}:tasklogs:${taskId}`;
  }

  /** A conversation's "always" approvals (a list of JSON texts). */
  grants(sessionId: string): string {
    return `${this.prefix}:grants:${sessionId}`;
  }
}
