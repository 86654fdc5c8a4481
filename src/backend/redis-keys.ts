/**
 * The names of everything the backend keeps in Redis, under one prefix so several
 * deployments (or tests) can share a server. BullMQ's own keys go under `<prefix>:bull`.
 */
export class RedisKeys {
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

  /** A run's (or a remote child's) event log: a stream. */
  log(runId: string): string {
    return `${this.prefix}:log:${runId}`;
  }

  /** The started runs every engine publishes (a hash: run id to JSON). */
  get runs(): string {
    return `${this.prefix}:runs`;
  }

  /** Where run changes, cancels and answers travel between engines. */
  get runsChannel(): string {
    return `${this.prefix}:runs-events`;
  }

  /**
   * Marks a run cancelled by another engine (kept 10 minutes), written with the cancel's
   * message: the owner cancels only a run Redis marks so (anyone can publish a message).
   */
  runCancelled(runId: string): string {
    return `${this.prefix}:run-cancelled:${runId}`;
  }

  /** Where cancels of remote tasks travel to the workers (message: the job id). */
  get cancelChannel(): string {
    return `${this.prefix}:task-cancel`;
  }

  /** Marks a remote task cancelled, for a worker that picks it up after the cancel was published. */
  cancelled(jobId: string): string {
    return `${this.prefix}:cancelled:${jobId}`;
  }

  /**
   * Marks a background task cancelled on an engine that does not run it (the value: the
   * start of the launch cancelled), for a worker that takes its job after the cancel.
   */
  taskCancelled(taskId: string): string {
    return `${this.prefix}:task-cancelled:${taskId}`;
  }

  /** Which job runs a background task's launch (JSON: its id and when it was queued), set by the worker that starts it. */
  taskJob(taskId: string): string {
    return `${this.prefix}:taskjob:${taskId}`;
  }

  /**
   * BullMQ's lock on a job a worker runs: the worker's BullMQ lock manager renews it every
   * quarter `lockDuration` (the stall interval) while the worker lives, so it is gone a stall
   * interval after the worker died at most; BullMQ deletes it when the job ends. The job's
   * heartbeat, as BullMQ's own Lua scripts name it (`<queue key>:<job id>:lock`).
   */
  jobLock(jobId: string): string {
    return `${this.bull}:${TASK_QUEUE}:${jobId}:lock`;
  }

  /** The live workers: a sorted set of worker ids scored by their last beat (Redis's clock, ms). */
  get workers(): string {
    return `${this.prefix}:workers`;
  }

  /** An app instance's (a backend's) heartbeat: gone when its process died. */
  instance(instanceId: string): string {
    return `${this.prefix}:instance:${instanceId}`;
  }

  /** Set by the one engine that ended a run whose instance died (so only one does). */
  reaped(runId: string): string {
    return `${this.prefix}:reaped:${runId}`;
  }

  /** Where a worker asks the launcher of a job for approvals. */
  approvals(jobId: string): string {
    return `${this.prefix}:approve:${jobId}`;
  }

  /** Where a worker hears the answers to its approval requests. */
  answers(workerId: string): string {
    return `${this.prefix}:answers:${workerId}`;
  }

  /** A conversation's background results waiting for its next prompt (a hash: `<task>\n<run start>` to JSON). */
  results(sessionId: string): string {
    return `${this.prefix}:results:${sessionId}`;
  }

  /**
   * The background results of a conversation that were taken (delivered) or dropped by the
   * bound (a sorted set: `<task>\n<run start>` scored by Redis's time of its take or drop;
   * each member kept as long as a result waits, and only the newest `GONE_KEPT`, trimmed by
   * each take and drop, see results-gone.ts): what a `taken` or `dropped` message on the
   * results channel is checked against before a mirror forgets a result for good, and what
   * refuses a late put of one.
   */
  resultsGone(sessionId: string): string {
    return `${this.prefix}:results-gone:${sessionId}`;
  }

  /**
   * Every waiting background result, all conversations together, oldest first (a sorted
   * set: `<session>\n<task>\n<run start>` scored by {@link RedisKeys.waitingSeq}): where the bound on
   * waiting results is kept, see waiting-results-store.ts.
   */
  get waitingOrder(): string {
    return `${this.prefix}:waiting:order`;
  }

  /** What each waiting result weighs (a hash: the member of {@link RedisKeys.waitingOrder} to its UTF-16 units). */
  get waitingSizes(): string {
    return `${this.prefix}:waiting:sizes`;
  }

  /** What all waiting results weigh together (a number). */
  get waitingChars(): string {
    return `${this.prefix}:waiting:chars`;
  }

  /**
   * The bound on waiting results (JSON: `results` and `chars`), written by each engine from
   * its `taskTrackerLimits` as its tracker is made, read by every put (a worker's too).
   */
  get waitingBound(): string {
    return `${this.prefix}:waiting:bound`;
  }

  /** The counter that orders waiting results. */
  get waitingSeq(): string {
    return `${this.prefix}:waiting:seq`;
  }

  /** A conversation's note of results dropped unread (JSON: `count` and the first `taskIds`). */
  droppedResults(sessionId: string): string {
    return `${this.prefix}:dropped:${sessionId}`;
  }

  /**
   * An answer sent to another instance's run, until its owner claims it or the sender
   * withdraws it (`pending`, then `claimed`, then `taken` or `refused`; see answer-claim.ts).
   */
  answer(requestId: string): string {
    return `${this.prefix}:answer:${requestId}`;
  }

  /** Where background results and their delivery are announced. */
  get resultsChannel(): string {
    return `${this.prefix}:results-events`;
  }

  /** A task as its engine last published it (JSON). */
  task(taskId: string): string {
    return `${this.prefix}:task:${taskId}`;
  }

  /** Where task changes and cancels travel between engines. */
  get tasksChannel(): string {
    return `${this.prefix}:tasks-events`;
  }

  /** One token budget of a tree's pool (a hash: limit, used, reserved; the root's also last), see redis-budget.ts. */
  budget(id: string): string {
    return `${this.prefix}:budget:${id}`;
  }

  /**
   * The reservations a job's worker holds of its pool until they settle (a hash: reservation
   * id → JSON { tokens, chain }), given back by its engine if the worker dies; see redis-budget-scripts.ts.
   */
  budgetHeld(jobId: string): string {
    return `${this.prefix}:budget-held:${jobId}`;
  }

  /** BullMQ's prefix. */
  get bull(): string {
    return `${this.prefix}:bull`;
  }
}

/** The BullMQ queue delegated tasks wait in. */
export const TASK_QUEUE = 'tasks';
