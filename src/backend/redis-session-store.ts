import type { Redis } from 'ioredis';
import type { ChatMessage } from '../model/chat-message.js';
import type { SessionClaim } from '../session/session-claim.js';
import { assertSessionId, sessionIdProblem } from '../session/session-id.js';
import type { ApprovalGrant, SessionStore, SessionSummary, TaskSessionInfo } from '../session/session-store.js';
import { sessionTitle } from '../session/session-title.js';
import { redisFailure } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';
import { claimLease } from './redis-session-lease.js';
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

  /** Appends the messages in one `RPUSH`, so a write is never interleaved with another. */
  async append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    assertSessionId(sessionId);
    if (messages.length === 0) return;
    const key = this.keys.session(sessionId);
    await this.redis
      .multi()
      .rpush(key, ...messages.map((m) => JSON.stringify(m)))
      .pexpire(key, this.ttlMs)
      .zadd(this.keys.sessionIndex(), Date.now(), sessionId)
      // The index lives as long as its newest session, and forgets the ones expired since.
      .zremrangebyscore(this.keys.sessionIndex(), '-inf', Date.now() - this.ttlMs)
      .pexpire(this.keys.sessionIndex(), this.ttlMs)
      .exec()
      .catch(fail('saving a session'));
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
      .del(k.session(sessionId), k.taskInfo(sessionId), k.grants(sessionId), k.archive(sessionId), k.archived(sessionId))
      .zrem(k.sessionIndex(), sessionId)
      .exec()
      .catch(fail('deleting a session'));
  }

  /**
   * The conversations on this Redis (task sessions left out), the most recently written
   * first, titled by the first prompt of their whole transcript. Sessions that expired
   * (`sessionTtlMs`) are pruned from the index as they are found.
   */
  async list(): Promise<SessionSummary[]> {
    const k = this.keys;
    const flat = await this.redis.zrevrange(k.sessionIndex(), 0, -1, 'WITHSCORES').catch(fail('listing sessions'));
    const summaries: SessionSummary[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      const sessionId = flat[i]!;
      // Only what append() indexes: anything else in the index is not a session of ours.
      if (sessionIdProblem(sessionId) !== undefined) continue;
      const answers = await this.redis.multi().exists(k.session(sessionId)).exists(k.taskInfo(sessionId)).exec().catch(fail('listing sessions'));
      const [live, task] = (answers ?? []).map(([, value]) => value);
      if (live !== 1) {
        await this.redis.zrem(k.sessionIndex(), sessionId).catch(fail('listing sessions'));
        continue;
      }
      if (task === 1) continue;
      summaries.push({ sessionId, title: sessionTitle(await this.loadArchive(sessionId)), lastActivityAt: Number(flat[i + 1]) });
    }
    return summaries;
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
    await this.redis.eval(REPLACE, keys.length, ...keys, this.ttlMs, ...messages.map((m) => JSON.stringify(m))).catch(fail('compacting a session'));
    await this.redis.multi().zadd(k.sessionIndex(), Date.now(), sessionId).pexpire(k.sessionIndex(), this.ttlMs).exec().catch(fail('compacting a session'));
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

/**
 * KEYS: the session, its archive, its mark; ARGV: the time to live, then the new messages.
 * Pushes in chunks of 1,000 (Lua's `unpack` has a limit).
 */
const REPLACE = `
local live = tonumber(redis.call('GET', KEYS[3]) or '0') or 0
local current = redis.call('LRANGE', KEYS[1], live, -1)
for i = 1, #current, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(current, i, math.min(i + 999, #current)))
end
redis.call('DEL', KEYS[1])
for i = 2, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('SET', KEYS[3], #ARGV - 1, 'PX', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[1]) end
return 1
`;

function fail(doing: string): (e: unknown) => never {
  return (e) => {
    throw redisFailure(doing, e);
  };
}
