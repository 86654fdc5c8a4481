import type { ChatMessage } from '../model/chat-message.js';
import type { SessionClaim } from './session-claim.js';

/** A value now, or later. Stores may answer synchronously, which keeps runs synchronous too. */
export type MaybePromise<T> = T | Promise<T>;

/** What a store remembers about a delegated task's session, so it can be resumed later. */
export interface TaskSessionInfo {
  /** The task's id, which is also its session id. */
  readonly taskId: string;
  /** The agent that ran the task; a resume must name the same one. */
  readonly agentName: string;
  /** The task's short label, as the parent wrote it. */
  readonly description: string;
  /** The conversation (main session) that started the task; only it may resume it. */
  readonly ownerSessionId: string;
  /** The session of the run that started it (or last resumed it): the conversation, or the task that delegated it. */
  readonly parentSessionId?: string;
  /**
   * The id of the parent's `task`/`multitask` call that started it, or of the `task` call that
   * last resumed it (only the latest call can be cut unanswered): a parent run cut before that
   * call answered (its process killed, or the run failed or was cancelled) finds the task by it,
   * and the call's result names the task so it can be resumed (see docs/delegation.md). Absent
   * in task infos saved before it was recorded.
   */
  readonly callId?: string;
}

/**
 * Where conversations live. A session is an append-only list of messages (never the system
 * prompt, which is rebuilt for every run). The main agent and delegated tasks use the same
 * store, so a store that survives restarts lets both continue after one.
 *
 * @example
 * ```ts
 * const engine = new HarnessEngine({ model, sessions: new FileSessionStore('/srv/project') });
 * ```
 */
export interface SessionStore {
  /** The session's messages in order; an unknown session is empty. */
  load(sessionId: string): MaybePromise<readonly ChatMessage[]>;
  /** Appends messages to the session (creating it). Writes of one session keep their order. */
  append(sessionId: string, messages: readonly ChatMessage[]): MaybePromise<void>;
  /** Remembers who owns a task session (for resume). Optional: without it resume works only in-process. */
  saveTaskInfo?(info: TaskSessionInfo): MaybePromise<void>;
  /** What {@link saveTaskInfo} stored for a task, if anything. */
  loadTaskInfo?(taskId: string): MaybePromise<TaskSessionInfo | undefined>;
  /**
   * The task infos the store holds as the tasks of conversation `ownerSessionId` (those
   * naming it as their owner, checked as {@link loadTaskInfo} checks one), in no set order.
   * Asked only when a `task`/`multitask` call is closed without a result (a load's repair, or a
   * run that failed or was cancelled), to name the tasks it started. A store may list only its
   * tasks written last (the file store: among its 1,000 newest task files): the call's were
   * saved in the turn being closed. Optional: without it that result names no task. The
   * memory, file and Redis stores have it.
   */
  listTaskInfos?(ownerSessionId: string): MaybePromise<readonly TaskSessionInfo[]>;
  /** Forgets a session: its messages, its grants and, for a task session, its task info. Unknown ids are ignored. */
  delete?(sessionId: string): MaybePromise<void>;
  /** The conversation's "always" approvals, oldest first. Optional: without it they last as long as the process. */
  loadGrants?(sessionId: string): MaybePromise<readonly ApprovalGrant[]>;
  /** Keeps one more "always" approval of the conversation. */
  saveGrant?(sessionId: string, grant: ApprovalGrant): MaybePromise<void>;
  /**
   * `true` when what {@link SessionStore.saveGrant} keeps is what {@link SessionStore.loadGrants}
   * lists, for every process sharing the store: what it lists is then all a conversation's
   * grants (one whose save failed is asked again at the conversation's next run). Absent, a
   * store counts as keeping grants once it has listed one saved to it.
   */
  readonly keepsGrants?: boolean;
  /**
   * Replaces the session's messages by `messages` (a compaction, see docs/sessions.md),
   * after appending to the session's archive those of its messages that are not there yet,
   * so nothing is lost. Optional: without it a compaction only shortens the run's request,
   * and the next run loads the whole session again.
   */
  replace?(sessionId: string, messages: readonly ChatMessage[]): MaybePromise<void>;
  /**
   * The whole transcript of the session: every message ever appended, in order, those
   * compactions replaced included; for a session never compacted, its messages. Given by
   * the stores that have {@link SessionStore.replace}.
   */
  loadArchive?(sessionId: string): MaybePromise<readonly ChatMessage[]>;
  /**
   * The conversations it holds (never task sessions), the most recently active first (ties in
   * an order of the store's own that stays the same between calls): each with a title (its
   * first user message) and when it last changed. With a `request`, only those after
   * `request.after` in that order, at most `request.limit` of them: `GET /api/sessions` pages
   * with it, so a store should answer from small summaries kept as sessions are written,
   * never by reading transcripts. Without a request, all of them. A request that is none (an
   * `after.lastActivityAt` that is `NaN` or infinite, a `limit` of -1) should be refused, not
   * answered by an empty page: the memory and file stores throw a `RangeError`. Optional: without it
   * `GET /api/sessions` answers `404` and the page shows no conversation list. The memory,
   * file and Redis stores have it.
   */
  list?(request?: SessionListRequest): MaybePromise<readonly SessionSummary[]>;
  /**
   * Claims the session for one run (`owner`: the engine passes the run id), so that no other
   * run appends to it until the claim is released; the engine takes it before a run starts
   * (refused: the run fails with `SessionBusyError`, HTTP 409) and releases it when the run
   * has ended. The memory store keeps claims in its process; a store shared by several
   * processes must make them hold across them, and must free the claim of a process that
   * died: the file store makes a lock file beside the session's files, which a later claim
   * removes once its process has ended (on the same machine), and the Redis store takes a
   * lease (`SET key owner NX PX ttl`) that it renews while the run lives and deletes when
   * released, and that expires if its owner dies.
   * Optional: without it, runs of one engine still exclude each other (the engine keeps
   * claims per store in memory), but engines sharing the store do not.
   */
  claim?(sessionId: string, owner: string): MaybePromise<SessionClaim>;
  /**
   * Tells `watcher` of every conversation the store deletes from now on, whoever asked (one of
   * several engines sharing the store in this process, or a call on the store itself), with
   * the ids of the delegated tasks deleted with it (`[]` when none). Call it once the
   * conversation is gone, before `delete` returns (or its promise settles); never for the
   * delete of a task session alone (an ephemeral run deletes its tasks' sessions as it ends).
   * Keep the watcher until the returned function is called, which stops the telling (calling it
   * again does nothing); a watcher that throws should not fail the delete.
   *
   * An engine watches the store it is given, without a `backend`: told, it stops its
   * background tasks of the conversation (a write one still makes is refused with
   * `DeletedConversationError`) and forgets their waiting results and its "always" approvals,
   * so none reaches a new conversation of the id. It gives the store a small relay that holds
   * the engine only weakly: an engine dropped without `close()` is no longer told, nor kept
   * alive by the store. `MemorySessionStore` has it. An engine given a store without it that
   * has `loadTaskInfo` reads the store's task info at each claim instead (as engines sharing a
   * `FileSessionStore` folder do, see docs/sessions.md). Optional: a store with neither tells
   * no engine, and a delete through one engine stops only that engine's tasks.
   *
   * @example
   * ```ts
   * const unwatch = store.watchDeletes?.((sessionId, taskIds) => console.log(`deleted ${sessionId} and ${taskIds.length} tasks`));
   * unwatch?.();
   * ```
   */
  watchDeletes?(watcher: (sessionId: string, taskIds: readonly string[]) => void): () => void;
}

/** An "always" approval: calls of `toolName` on exactly `subject` (a command, a path) are allowed for the rest of the conversation. */
export interface ApprovalGrant {
  /** The tool it allows. */
  readonly toolName: string;
  /** The exact subject it allows (absent: the tool's calls that have no subject). */
  readonly subject?: string;
}

/** One conversation as {@link SessionStore.list} names it. */
export interface SessionSummary {
  /** The session's id (what `sessionId` takes to continue it). */
  readonly sessionId: string;
  /** Its first user message on one line, cut to 80 characters (`''` when it has none). */
  readonly title: string;
  /** When a message was last added or replaced, in epoch milliseconds. */
  readonly lastActivityAt: number;
}


/**
 * Which conversations {@link SessionStore.list} answers: a page of them.
 *
 * @example
 * ```ts
 * const first = await store.list!({ limit: 50 });
 * const next = await store.list!({ limit: 50, after: first.at(-1) });
 * ```
 */
export interface SessionListRequest {
  /** At most this many (an integer >= 0); default all. */
  readonly limit?: number;
  /**
   * Only the conversations listed after this one (the last of the previous page): less
   * recently active, or as recently and later in the store's order. The conversation need not
   * exist any more. Sessions written since the previous page move to the front, so paging
   * neither repeats nor skips the others.
   */
  readonly after?: SessionPosition;
}

/** Where a conversation stands in {@link SessionStore.list}'s order: its last activity and id. */
export interface SessionPosition {
  /** The conversation's {@link SessionSummary.lastActivityAt}. */
  readonly lastActivityAt: number;
  /** The conversation's id. */
  readonly sessionId: string;
}
