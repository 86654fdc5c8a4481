/**
 * The Lua scripts of `RedisSessionStore`. Each write of a session (append, grant, compaction)
 * is one script over the same keys (see `sessionKeys` in redis-session-delete.ts), so it runs
 * whole: no other write falls between its steps, every key of the session is kept
 * `sessionTtlMs` longer by it, and nothing that can fail comes after its first write (a
 * failed write wrote nothing, so a retry does not store it twice).
 *
 * KEYS, always: the messages, the archive, the archive mark, the grants, the task info, the
 * summary, the set of the tasks it started, the index, the mark of a deleted conversation's
 * task (a write to such a task is refused, writing nothing). ARGV, always: the time to live,
 * now, the id, the title of what was written; then what is written. A refusal (a write of a
 * deleted conversation's task, a mark the store cannot have written) is a `scriptRefusal`:
 * it reaches the user as its words, not as a failure of Redis.
 */
import { checkArchiveMark } from './redis-archive-mark.js';
import { scriptRefusal } from './redis-connection.js';

/**
 * The steps the write scripts share. `repair`: the index and the summary are derived (the
 * index lists conversations, the summary titles one), so one of another type (planted, or
 * written by something else under this prefix) is deleted, to be rebuilt by this write,
 * rather than failing the write half way; it answers the keys replaced and their types, for
 * the store to warn about. `keep`: every key of the session that exists lives `ttl` longer,
 * so nothing of a conversation still in use (its archive, mark, grants, task info, task set)
 * expires before its messages: a task set gone early would leave its tasks out of a delete.
 * `index`: scored by now in the index, its summary titled by its first prompt; a task
 * session is not indexed. Only a session the index does not list yet, with a consistent task
 * record (`task()`: the rule of `taskRecordFor` in redis-task-records.ts), is one: a
 * conversation already listed stays listed, its score refreshed, whatever task record its id
 * has (one planted there used to stop its writes from refreshing it, so the pruning of ids
 * older than `ttl` dropped it from the index while its messages lived on).
 */
const BODY = `
local ttl, now, id, title = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4]
-- A task of a deleted conversation: a worker that ran it on after the delete writes nothing.
if redis.call('EXISTS', KEYS[9]) == 1 then
  ${scriptRefusal(`'the session "' .. id .. '" is a task of a deleted conversation: nothing more is written to it'`)}
end
local function repair()
  local replaced = {}
  for _, pair in ipairs({ { KEYS[8], 'zset' }, { KEYS[6], 'hash' } }) do
    local found = redis.call('TYPE', pair[1]).ok
    if found ~= 'none' and found ~= pair[2] then
      redis.call('DEL', pair[1])
      replaced[#replaced + 1] = pair[1]
      replaced[#replaced + 1] = found
    end
  end
  return replaced
end
local function keep()
  for i = 1, 7 do redis.call('PEXPIRE', KEYS[i], ttl) end
end
-- Whether KEYS[5] is the task record of session id: a JSON object naming id as its task and
-- another session as its owner (TYPE first: a GET of another type would fail the script after
-- its first write).
local function task()
  if redis.call('TYPE', KEYS[5]).ok ~= 'string' then return false end
  local ok, info = pcall(cjson.decode, redis.call('GET', KEYS[5]))
  if not ok or type(info) ~= 'table' then return false end
  for _, name in ipairs({ 'taskId', 'agentName', 'description', 'ownerSessionId' }) do
    if type(info[name]) ~= 'string' then return false end
  end
  return info.taskId == id and info.ownerSessionId ~= id
end
local function index()
  -- repair() ran first: the index, if any, is a sorted set, so ZSCORE cannot fail here.
  if not redis.call('ZSCORE', KEYS[8], id) and task() then return end
  -- GT: a write never moves a session back (an instance whose clock is behind), so a page
  -- after it neither repeats it nor skips others; a new session is added as before.
  redis.call('ZADD', KEYS[8], 'GT', now, id)
  redis.call('ZREMRANGEBYSCORE', KEYS[8], '-inf', now - ttl)
  redis.call('PEXPIRE', KEYS[8], ttl)
  local kept = redis.call('HGET', KEYS[6], 'title')
  if not kept or kept == '' then redis.call('HSET', KEYS[6], 'title', title) end
  redis.call('PEXPIRE', KEYS[6], ttl)
end
-- Pushes ARGV[from..] onto a list, 1,000 at a time (Lua's unpack has a limit).
local function push(key, items, from)
  for i = from, #items, 1000 do
    redis.call('RPUSH', key, unpack(items, i, math.min(i + 999, #items)))
  end
end
`;

/**
 * Appends the messages (ARGV[5..]), keeps the session, indexes it. The `RPUSH` is the first
 * write: a messages key of another type fails the script before anything is written.
 * Answers what `repair` replaced.
 */
export const APPEND_SESSION = `${BODY}
local replaced = repair()
push(KEYS[1], ARGV, 5)
keep()
index()
return replaced
`;

/**
 * Keeps one more grant (ARGV[5]) and the session. With a claim key (KEYS[10]: a worker's
 * task), only while one of the runs ARGV[6..] holds it: the check and the push are one step,
 * so the run's release and a delete after it cannot fall between them (a push landing after
 * the delete would bring the grants back, kept `ttl`). Answers an empty list.
 */
export const SAVE_GRANT = `${BODY}
if KEYS[10] then
  local holder = redis.call('TYPE', KEYS[10]).ok == 'string' and redis.call('GET', KEYS[10])
  local ours = false
  for i = 6, #ARGV do
    if ARGV[i] == holder then ours = true end
  end
  if not ours then return {} end
end
redis.call('RPUSH', KEYS[4], ARGV[5])
keep()
return {}
`;

/**
 * Replaces the messages (a compaction; ARGV[5] is the key of the archive mark as `shownKey`
 * shows it, for a refusal to name; the new messages ARGV[6..]): the ones the archive does
 * not hold yet (past the mark) are pushed to it first (the first write: an archive of
 * another type fails the script before anything is written), then the session is
 * rewritten, the mark set to its new length, the session kept and indexed. A mark the store
 * cannot have written (see redis-archive-mark.ts) is refused first, writing nothing: read as
 * a number, it left messages out of the archive, dropped by the rewrite. Answers what
 * `repair` replaced.
 */
export const REPLACE_SESSION = `${BODY}${checkArchiveMark('ARGV[5]')}
local current = redis.call('LRANGE', KEYS[1], live, -1)
local replaced = repair()
push(KEYS[2], current, 1)
redis.call('DEL', KEYS[1])
push(KEYS[1], ARGV, 6)
redis.call('SET', KEYS[3], #ARGV - 5)
keep()
index()
return replaced
`;

/**
 * Saves a task's info (ARGV[1], kept ARGV[2] ms; KEYS[1]) and lists the task (ARGV[3]) in its
 * conversation's set (KEYS[2]), unless the session that starts it is a task of a deleted
 * conversation (its mark, KEYS[3]): a task the delete did not reach yet (its worker stops it
 * when its cancel arrives) starts none, which the delete would not know of. One script, so a
 * start either lands in the set before the mark (and the delete finds it) or is refused.
 */
export const SAVE_TASK_INFO = `
if redis.call('EXISTS', KEYS[3]) == 1 then
  ${scriptRefusal(`'the session "' .. ARGV[4] .. '" is a task of a deleted conversation: it starts no more tasks'`)}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
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
