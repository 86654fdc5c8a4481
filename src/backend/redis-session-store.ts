import type { Redis } from 'ioredis';
import type { ChatMessage } from '../model/chat-message.js';
import type { SessionClaim } from '../session/session-claim.js';
import { assertSessionId } from '../session/session-id.js';
import type { ApprovalGrant, SessionListRequest, SessionStore, SessionSummary, TaskSessionInfo } from '../session/session-store.js';
import { sessionTitle } from '../session/session-title.js';
import { redisFailure } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';
import { claimLease } from './redis-session-lease.js';
import { listRedisSessions } from './redis-session-list.js';
import { APPEND_SESSION, INDEX_SESSION, REPLACE_SESSION } from './redis-session-scripts.js';
import { storedObject } from './stored-object.js';

/**
 * A {@link SessionStore} in Redis, shared by every engine and worker on it: a session is a
 * list of JSON messages (an append is one `RPUSH`, so concurrent writers never interleave
 * inside a write), a task's owner a JSON value, a conversation's grants a list, each kept
 * `sessionTtlMs` after its last write (so task sessions of finished one-off runs go). Every
 * answer is still checked by the run (`checkHistory`), as with any store: an item that is
 * not JSON is handed over as its text, which the run skips with a Warning. A run holds its
 * session by a lease (see {@link RedisSessionStore.claim}). An id that is not well-formed
 * Unicode is refused (as UTF-8 in a key, it would name another id's session).
 *
 * @example
 * ```ts
 * const backend = await redisBackend({ url });
 * await backend.sessions.load('ses_1');
 * ```
 */
export class RedisSessionStore implements SessionStore {
  /** @internal */
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** Each write keeps a session (its messages, task info, grants) this much longer. */
    private readonly ttlMs: number,
    /** How long a run's claim of its session lasts unless renewed (its process died). */
    private readonly leaseMs = 30_000,
  ) {}

  /** The session's messages, in order; an unknown session is empty. */
  async load(sessionId: string): Promise<readonly ChatMessage[]> {
    assertSessionId(sessionId);
    const items = await this.redis.lrange(this.keys.session(sessionId), 0, -1).catch(fail('loading a session'));
    return items.map((item) => parsed(item) as ChatMessage);
  }

  /**
   * Appends the messages in one script, so a write is never interleaved with another; a
   * conversation (not a task session) is indexed for `list()` at the same time: its score
   * in `<prefix>:sessions` (which lives as long as its newest session, and forgets the ones
   * expired since) and its summary (the title) kept as long as the session.
   */
  async append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    assertSessionId(sessionId);
    if (messages.length === 0) return;
    const k = this.keys;
    const keys = [k.session(sessionId), k.sessionIndex(), k.sessionSummary(sessionId), k.taskInfo(sessionId)];
    const args = [this.ttlMs, Date.now(), sessionId, sessionTitle(messages), ...messages.map((m) => JSON.stringify(m))];
    await this.redis.eval(APPEND_SESSION, keys.length, ...keys, ...args).catch(fail('saving a session'));
  }

  /** Remembers who owns a task session, for a resume from any engine. */
  async saveTaskInfo(info: TaskSessionInfo): Promise<void> {
    await this.redis.set(this.keys.taskInfo(info.taskId), JSON.stringify(info), 'PX', this.ttlMs).catch(fail('saving a task'));
  }

  /** What {@link RedisSessionStore.saveTaskInfo} stored for a task, if anything. */
  async loadTaskInfo(taskId: string): Promise<TaskSessionInfo | undefined> {
    const text = await this.redis.get(this.keys.taskInfo(taskId)).catch(fail('loading a task'));
    const v = storedObject(text);
    // Not what saveTaskInfo wrote: as if unknown (a resume then says the task is not found).
    const fine = v && ['taskId', 'agentName', 'description', 'ownerSessionId'].every((name) => typeof v[name] === 'string');
    return fine ? (v as unknown as TaskSessionInfo) : undefined;
  }

  /** Forgets a session: its messages, its grants and its task info. */
  async delete(sessionId: string): Promise<void> {
    assertSessionId(sessionId);
    const k = this.keys;
    await this.redis
      .multi()
      .del(k.session(sessionId), k.taskInfo(sessionId), k.grants(sessionId), k.archive(sessionId), k.archived(sessionId), k.sessionSummary(sessionId))
      .zrem(k.sessionIndex(), sessionId)
      .exec()
      .catch(fail('deleting a session'));
  }

  /**
   * The conversations on this Redis (task sessions left out), the most recently written
   * first (ties by id), titled by the first prompt of their whole transcript; a page of them
   * with a `request`. Two round trips a page, whatever the number of sessions: the index
   * from the request's position, then the page's summaries; no transcript is read. Sessions
   * that expired (`sessionTtlMs`) are pruned from the index as they are found.
   */
  list(request?: SessionListRequest): Promise<SessionSummary[]> {
    return listRedisSessions({ redis: this.redis, keys: this.keys, ttlMs: this.ttlMs, loadArchive: (id) => this.loadArchive(id) }, request);
  }

  /**
   * Replaces a session's messages (a compaction) in one script, so no append falls between:
   * the messages its archive does not hold yet are pushed to the archive, then the session
   * is rewritten and the count of messages the archive accounts for is kept beside it.
   */
  async replace(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    assertSessionId(sessionId);
    const k = this.keys;
    const keys = [k.session(sessionId), k.archive(sessionId), k.archived(sessionId)];
    await this.redis.eval(REPLACE_SESSION, keys.length, ...keys, this.ttlMs, ...messages.map((m) => JSON.stringify(m))).catch(fail('compacting a session'));
    const listed = [k.sessionIndex(), k.sessionSummary(sessionId), k.taskInfo(sessionId)];
    await this.redis.eval(INDEX_SESSION, listed.length, ...listed, this.ttlMs, Date.now(), sessionId, sessionTitle(messages)).catch(fail('compacting a session'));
  }

  /** The whole transcript: the archive, then what the session gained since its last compaction. */
  async loadArchive(sessionId: string): Promise<readonly ChatMessage[]> {
    assertSessionId(sessionId);
    const k = this.keys;
    const answers = await this.redis.multi().get(k.archived(sessionId)).lrange(k.archive(sessionId), 0, -1).lrange(k.session(sessionId), 0, -1).exec().catch(fail('loading an archive'));
    const [mark, archive, session] = (answers ?? []).map(([, value]) => value) as [string | null, string[], string[]];
    const live = Number(mark ?? 0);
    return [...(archive ?? []), ...(session ?? []).slice(Number.isInteger(live) ? live : 0)].map((item) => JSON.parse(item) as ChatMessage);
  }

  /**
   * Claims the session for one run across every engine and worker on this Redis: a lease
   * (`SET <prefix>:claim:<id> owner NX PX leaseMs`), renewed every third of `leaseMs` until
   * released, deleted then by a compare-and-delete script, and expired by Redis `leaseMs`
   * after its owner died. Refused, it names the owner that holds it.
   */
  async claim(sessionId: string, owner: string): Promise<SessionClaim> {
    assertSessionId(sessionId);
    return claimLease(this.redis, this.keys.claim(sessionId), owner, this.leaseMs);
  }

  /** The conversation's "always" approvals, oldest first. */
  async loadGrants(sessionId: string): Promise<readonly ApprovalGrant[]> {
    assertSessionId(sessionId);
    const items = await this.redis.lrange(this.keys.grants(sessionId), 0, -1).catch(fail('loading grants'));
    // Checked by the run, which skips (and counts in a Warning) what is not a grant.
    return items.map((item) => parsed(item) as ApprovalGrant);
  }

  /** Keeps one more "always" approval of the conversation. */
  async saveGrant(sessionId: string, grant: ApprovalGrant): Promise<void> {
    assertSessionId(sessionId);
    const key = this.keys.grants(sessionId);
    await this.redis.multi().rpush(key, JSON.stringify(grant)).pexpire(key, this.ttlMs).exec().catch(fail('saving a grant'));
  }
}

/** A stored item as JSON, or its text when it is not JSON (for the run's checks to report). */
function parsed(item: string): unknown {
  try {
    return JSON.parse(item);
  } catch {
    return item;
  }
}

function fail(doing: string): (e: unknown) => never {
  return (e) => {
    throw redisFailure(doing, e);
  };
}
