import type { Redis } from 'ioredis';
import type { ChatMessage } from '../model/chat-message.js';
import { sessionIdProblem } from '../session/session-id.js';
import { newestFirst } from '../session/session-order.js';
import type { SessionListRequest, SessionPosition, SessionSummary } from '../session/session-store.js';
import { sessionTitle } from '../session/session-title.js';
import { markInvisible } from '../text/visible-text.js';
import { shownKey, warnBadData } from './bad-data-warning.js';
import { redisFailure } from './redis-connection.js';
import type { RedisKeys } from './redis-keys.js';
import { SESSION_PAGE } from './redis-session-scripts.js';
import { taskRecordFor } from './redis-task-records.js';

/** How many index members one round of a listing without a limit reads. */
const ROUND = 500;

/** What {@link listRedisSessions} needs of the store. */
export interface RedisSessionSource {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly ttlMs: number;
  /** A session's whole transcript: read only for a conversation written before summaries. */
  loadArchive(sessionId: string): Promise<readonly ChatMessage[]>;
}

/**
 * A page of the conversations on Redis, newest first (ties by id, descending): the index
 * (`<prefix>:sessions`) read from the request's position by a script, then one pipeline for
 * the page's summaries (a hash per conversation, `<prefix>:summary:<id>`), so a page costs
 * two round trips whatever the number of sessions, and no transcript is read. Members whose
 * session expired are pruned; a summary of the wrong type is skipped with a warning; a
 * conversation written before summaries gets one from its transcript.
 */
export async function listRedisSessions(source: RedisSessionSource, request: SessionListRequest = {}): Promise<SessionSummary[]> {
  const limit = request.limit ?? Infinity;
  const page: SessionSummary[] = [];
  let after = request.after;
  while (page.length < limit) {
    const want = Math.min(limit - page.length, ROUND);
    const flat = (await source.redis
      .eval(SESSION_PAGE, 1, source.keys.sessionIndex(), after?.lastActivityAt ?? '', after?.sessionId ?? '', want)
      .catch(fail('listing sessions'))) as string[];
    const members: SessionPosition[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) members.push({ sessionId: flat[i]!, lastActivityAt: Number(flat[i + 1]) });
    const from = after;
    // Only what append() indexes, and nothing at or before the position (a moved position starts at its score).
    const fresh = members.filter((m) => sessionIdProblem(m.sessionId) === undefined && (!from || byOrder(from, m) < 0));
    page.push(...(await summariesOf(source, fresh)));
    if (members.length < want) break;
    after = members.at(-1);
  }
  return page.slice(0, limit);
}

function byOrder(a: SessionPosition, b: SessionPosition): number {
  return newestFirst(a.lastActivityAt, a.sessionId, b.lastActivityAt, b.sessionId);
}

/**
 * The summaries of indexed members, in one pipeline: each one's title, whether it lives, its
 * task record. A member with a summary was indexed as a conversation (a task session never is,
 * since summaries): listed whatever task record its id has. One without was indexed by an
 * earlier version: a task session then, if its task record is consistent ({@link taskRecordFor}).
 */
async function summariesOf(source: RedisSessionSource, members: readonly SessionPosition[]): Promise<SessionSummary[]> {
  if (members.length === 0) return [];
  const { redis, keys } = source;
  const pipeline = redis.pipeline();
  for (const { sessionId } of members) pipeline.hget(keys.sessionSummary(sessionId), 'title').exists(keys.session(sessionId)).get(keys.taskInfo(sessionId));
  const answers = (await pipeline.exec().catch(fail('listing sessions'))) ?? [];
  const gone: string[] = [];
  const summaries: SessionSummary[] = [];
  for (const [i, member] of members.entries()) {
    const [[titleError, title], [, live], [recordError, record]] = answers.slice(i * 3, i * 3 + 3) as [Error | null, unknown][];
    const legacyTask = title === null && !titleError && taskRecordFor(record, member.sessionId) !== undefined;
    if (live !== 1 || legacyTask) {
      gone.push(member.sessionId); // expired, or a task session indexed before summaries
      continue;
    }
    if (titleError) {
      const key = keys.sessionSummary(member.sessionId);
      warnBadData(key, `${shownKey(key)} is not a hash (${markInvisible(titleError.message)}): conversation "${shownKey(member.sessionId)}" is not listed; its next write makes a new summary`);
      continue;
    }
    if (record !== null || recordError) untrusted(keys.taskInfo(member.sessionId), member.sessionId);
    const named = typeof title === 'string' ? sessionTitle([{ role: 'user', content: title }]) : await migrated(source, member.sessionId);
    if (named !== undefined) summaries.push({ ...member, title: named });
  }
  if (gone.length > 0) await redis.zrem(keys.sessionIndex(), ...gone).catch(fail('listing sessions'));
  return summaries;
}

/** Warns that a task record was found for a conversation the index lists (planted, or left by something else): not trusted, it hides nothing. */
function untrusted(key: string, sessionId: string): void {
  warnBadData(key, `Redis key ${shownKey(key)}, the task record of "${shownKey(sessionId)}", is set, but the index lists it as a conversation: the conversation is listed all the same and the record left as it is (a session store never writes one for a conversation).`);
}

/** A conversation written before summaries: titled from its transcript, once (the summary is written for next time). */
async function migrated(source: RedisSessionSource, sessionId: string): Promise<string | undefined> {
  const key = source.keys.sessionSummary(sessionId);
  let title: string;
  try {
    title = sessionTitle(await source.loadArchive(sessionId));
  } catch (e) {
    warnBadData(key, `conversation "${shownKey(sessionId)}" is not listed: its transcript cannot be read (${markInvisible(e instanceof Error ? e.message : String(e))})`);
    return undefined;
  }
  await source.redis.multi().hsetnx(key, 'title', title).pexpire(key, source.ttlMs).exec().catch(fail('listing sessions'));
  return title;
}

function fail(doing: string): (e: unknown) => never {
  return (e) => {
    throw redisFailure(doing, e);
  };
}
