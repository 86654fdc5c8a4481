/**
 * The Lua scripts of `RedisSessionStore` that keep a conversation listed: each runs whole,
 * so no other write falls between its steps.
 */

/**
 * Indexes a conversation after a write (KEYS: the index, the summary, the task info; ARGV:
 * the time to live, now, the id, the title of what was written): scored by now in the index,
 * its summary titled by its first prompt, both kept as long as the session. The score only
 * rises (see the script). A task session
 * (its task info exists) is not indexed. A summary key of another type (planted) is replaced.
 */
const INDEX_BODY = `
local function index(indexKey, summaryKey, taskKey, ttl, now, id, title)
  if redis.call('EXISTS', taskKey) == 1 then return 0 end
  -- GT: a write never moves a session back (an instance whose clock is behind), so a page
  -- after it neither repeats it nor skips others; a new session is added as before.
  redis.call('ZADD', indexKey, 'GT', now, id)
  redis.call('ZREMRANGEBYSCORE', indexKey, '-inf', now - ttl)
  redis.call('PEXPIRE', indexKey, ttl)
  if redis.call('TYPE', summaryKey).ok ~= 'hash' then redis.call('DEL', summaryKey) end
  local kept = redis.call('HGET', summaryKey, 'title')
  if not kept or kept == '' then redis.call('HSET', summaryKey, 'title', title) end
  redis.call('PEXPIRE', summaryKey, ttl)
  return 1
end
`;

/** {@link INDEX_BODY} on its own, after a compaction. */
export const INDEX_SESSION = `${INDEX_BODY}
return index(KEYS[1], KEYS[2], KEYS[3], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4])
`;

/**
 * Appends (KEYS: the session, the index, the summary, the task info; ARGV: the time to live,
 * now, the id, the title of the messages, then the messages): one `RPUSH` per 1,000
 * messages (Lua's `unpack` has a limit), then {@link INDEX_BODY}.
 */
export const APPEND_SESSION = `${INDEX_BODY}
for i = 5, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return index(KEYS[2], KEYS[3], KEYS[4], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4])
`;

/**
 * A page of the index, newest first (KEYS: the index; ARGV: the last listed score and
 * member, or `''` to start, and how many): after the member's rank while it still has that
 * score, else from the first member of that score (the caller drops those listed already),
 * so members added meanwhile (at the front) shift nothing. Answers members and scores.
 */
export const SESSION_PAGE = `
local start = 0
if ARGV[1] ~= '' then
  local score = redis.call('ZSCORE', KEYS[1], ARGV[2])
  if score and tonumber(score) == tonumber(ARGV[1]) then
    start = redis.call('ZREVRANK', KEYS[1], ARGV[2]) + 1
  else
    start = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[1], '+inf')
  end
end
return redis.call('ZREVRANGE', KEYS[1], start, start + tonumber(ARGV[3]) - 1, 'WITHSCORES')
`;

/**
 * KEYS: the session, its archive, its mark; ARGV: the time to live, then the new messages.
 * Pushes in chunks of 1,000 (Lua's `unpack` has a limit).
 */
export const REPLACE_SESSION = `
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
