import type { Redis } from 'ioredis';
import type { ChatMessage } from '../model/chat-message.js';
import type { ApprovalGrant, SessionStore, TaskSessionInfo } from '../session/session-store.js';
import { redisFailure } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * A {@link SessionStore} in Redis, shared by every engine and worker on it: a session is a
 * list of JSON messages (an append is one `RPUSH`, so concurrent writers never interleave
 * inside a write), a task's owner a JSON value, a conversation's grants a list, each kept
 * `sessionTtlMs` after its last write (so task sessions of finished one-off runs go). Every
 * answer is still checked by the run (`checkHistory`), as with any store.
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
  ) {}

  /** The session's messages, in order; an unknown session is empty. */
  async load(sessionId: string): Promise<readonly ChatMessage[]> {
    const items = await this.redis.lrange(this.keys.session(sessionId), 0, -1).catch(fail('loading a session'));
    return items.map((item) => JSON.parse(item) as ChatMessage);
  }

  /** Appends the messages in one `RPUSH`, so a write is never interleaved with another. */
  async append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const key = this.keys.session(sessionId);
    await this.redis
      .multi()
      .rpush(key, ...messages.map((m) => JSON.stringify(m)))
      .pexpire(key, this.ttlMs)
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
    return text === null ? undefined : (JSON.parse(text) as TaskSessionInfo);
  }

  /** Forgets a session: its messages, its grants and its task info. */
  async delete(sessionId: string): Promise<void> {
    const k = this.keys;
    await this.redis.del(k.session(sessionId), k.taskInfo(sessionId), k.grants(sessionId)).catch(fail('deleting a session'));
  }

  /** The conversation's "always" approvals, oldest first. */
  async loadGrants(sessionId: string): Promise<readonly ApprovalGrant[]> {
    const items = await this.redis.lrange(this.keys.grants(sessionId), 0, -1).catch(fail('loading grants'));
    return items.map((item) => JSON.parse(item) as ApprovalGrant);
  }

  /** Keeps one more "always" approval of the conversation. */
  async saveGrant(sessionId: string, grant: ApprovalGrant): Promise<void> {
    const key = this.keys.grants(sessionId);
    await this.redis.multi().rpush(key, JSON.stringify(grant)).pexpire(key, this.ttlMs).exec().catch(fail('saving a grant'));
  }
}

function fail(doing: string): (e: unknown) => never {
  return (e) => {
    throw redisFailure(doing, e);
  };
}
