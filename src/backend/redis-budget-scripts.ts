/**
 * The Lua scripts of `RedisTokenBudget`: each changes a whole chain of budgets (own first,
 * root last) at once, so engines and workers in any process draw from one pool and never
 * both take its last tokens.
 *
 * A reservation made on a worker is also held under its job (`<prefix>:budget-held:<job>`,
 * a hash: reservation id → its tokens and chain), until its request settles. A worker that
 * dies mid-request never settles; the engine that fails its task for the lost heartbeat
 * runs {@link RELEASE_HELD}, which gives back what the job still held, so the dead worker's
 * reservations do not stay counted against the parent's pool (and its siblings') until the
 * pool expires. A settle whose reservation was released so (its worker was only cut off,
 * and came back) counts what it used and gives back nothing twice.
 *
 * A budget's hash is made by the first reservation that counts in it. One missing though the
 * caller counted in it since its expiry was last renewed (Redis restarted without
 * persistence, or evicted it) is not made again: its counts would start at 0 and the tree
 * would spend its budget a second time. The scripts answer `{ 'gone', key }` instead, before
 * any write, and the run stops.
 */

import { shownKey } from './bad-data-warning.js';
import { RedisBackendError } from './redis-backend-error.js';

/**
 * Refuses a chain whose budgets are not what these scripts write (each a hash whose counts
 * are whole numbers) before the first write: planted or damaged, `tonumber` reads a count
 * of `abc` as nil and the script fails midway with a Lua error naming neither key nor field
 * (a failing script keeps what it wrote before). `used` and `reserved` are changed by
 * `HINCRBY`, which fails on more than 64 bits: past 18 digits they are corrupt too (`limit`
 * and `last` are only read; older versions wrote a limit of 1e21 in 22 digits). Answers `{ 'corrupt', key, field, value }`
 * for the first one found (`field` '' and `value` its type: a key of another type).
 */
const CHECKED = `
local function corrupt(n)
  for i = 1, n do
    local found = redis.call('TYPE', KEYS[i]).ok
    if found ~= 'hash' and found ~= 'none' then return {'corrupt', KEYS[i], '', found} end
    local names = {'limit', 'used', 'reserved', 'last'}
    local h = redis.call('HMGET', KEYS[i], unpack(names))
    for j = 1, #names do
      local digits = h[j] and string.match(h[j], '^%-?(%d+)$')
      -- used, reserved: HINCRBY's, in 64 bits (18 digits and an increment of at most 2^53 fit)
      if h[j] and (not digits or (j == 2 or j == 3) and #digits > 18) then return {'corrupt', KEYS[i], names[j], h[j]} end
    end
  end
end
-- The first budget of the chain that must be there (must(i)) and is not, as { 'gone', key }.
local function gone(n, must)
  for i = 1, n do
    if must(i) and redis.call('EXISTS', KEYS[i]) == 0 then return {'gone', KEYS[i]} end
  end
end`;

/**
 * Reserves for one request on every node of a chain, only if each still has something left
 * once what is in flight is counted. KEYS: the chain, then (when held) the job's hash of
 * held reservations; ARGV: the estimate (0: the pool's last request, else 1), the expiry,
 * the reservation's id (`''`: not held), then each node's limit, then for each node `1` when
 * the caller already counted in it (it must be there: a missing one is gone, not made
 * afresh), else `0` (made here if missing, with the limit and the expiry). Answers { tokens
 * reserved (0: refused), least left after, binding limit, its used, least remaining }, or
 * what `CHECKED` found corrupt, or the first budget gone.
 */
export const RESERVE = `${CHECKED}
local n = (#ARGV - 3) / 2
local bad = corrupt(n) or gone(n, function(i) return ARGV[3 + n + i] == '1' end)
if bad then return bad end
local avail, bl, bu, rem
for i = 1, n do
  -- A refused reservation does not renew the expiry below: one made now gets it here.
  if redis.call('HSETNX', KEYS[i], 'limit', ARGV[i + 3]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
  local h = redis.call('HMGET', KEYS[i], 'limit', 'used', 'reserved')
  local limit, used = tonumber(h[1]), tonumber(h[2] or '0')
  local a = limit - used - tonumber(h[3] or '0')
  if avail == nil or a < avail then avail = a end
  if rem == nil or limit - used < rem then rem, bl, bu = limit - used, limit, used end
end
if avail <= 0 then return {0, avail, bl, bu, rem} end
local tokens = tonumber(ARGV[1])
if tokens <= 0 then tokens = tonumber(redis.call('HGET', KEYS[n], 'last') or '1') end
if tokens < 1 then tokens = 1 end
local chain = {}
for i = 1, n do
  redis.call('HINCRBY', KEYS[i], 'reserved', tokens)
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
  chain[i] = KEYS[i]
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[n + 1], ARGV[3], cjson.encode({ tokens = tokens, chain = chain }))
  redis.call('PEXPIRE', KEYS[n + 1], ARGV[2])
end
return {tokens, avail - tokens, bl, bu, rem}`;

/**
 * Replaces a reservation with what the request used, on every node of the chain; `used`
 * stops 2^53 past the limit (the budget is spent all the same), so a lying server's huge
 * usage on a hundred requests in flight does not grow it past the 18 digits `CHECKED` takes,
 * failing the other settles on a record this very script wrote. KEYS: the
 * chain, then (when held) the job's hash of held reservations; ARGV: tokens reserved,
 * tokens used, the expiry, the reservation's id (`''`: not held). Answers { binding limit,
 * its used, least remaining, least left for a new request }, or what `CHECKED` found corrupt,
 * or the first budget gone: its reservation made every one, so none is made here (`HINCRBY`
 * would make a hash with no limit and a negative `reserved`).
 */
export const SETTLE = `${CHECKED}
local held = ARGV[4] ~= ''
local n = held and #KEYS - 1 or #KEYS
local bad = corrupt(n) or gone(n, function() return true end)
if bad then return bad end
-- A held reservation already released (its worker was taken for dead) is not given back twice.
local giveBack = (not held) or redis.call('HDEL', KEYS[n + 1], ARGV[4]) == 1
local bl, bu, rem, avail
for i = 1, n do
  if giveBack then redis.call('HINCRBY', KEYS[i], 'reserved', -tonumber(ARGV[1])) end
  local used = redis.call('HINCRBY', KEYS[i], 'used', ARGV[2])
  local h = redis.call('HMGET', KEYS[i], 'limit', 'reserved')
  local limit = tonumber(h[1] or '0')
  -- Within CHECKED's 18 digits even for a limit of 1e21 (older versions wrote one), and HINCRBY's next 2^53.
  local most = math.min(limit + 2^53, 9e17)
  if used > most then
    used = most
    redis.call('HSET', KEYS[i], 'used', string.format('%d', most))
  end
  local a = limit - used - tonumber(h[2] or '0')
  if avail == nil or a < avail then avail = a end
  if rem == nil or limit - used < rem then rem, bl, bu = limit - used, limit, used end
  redis.call('PEXPIRE', KEYS[i], ARGV[3])
end
if tonumber(ARGV[2]) > 0 then redis.call('HSET', KEYS[n], 'last', ARGV[2]) end
return {bl, bu, rem, avail}`;

/**
 * Gives back every reservation a job still holds, and forgets them. KEYS: the job's hash of
 * held reservations; ARGV: the prefix of budget keys (an entry naming anything else, or not
 * of the shape {@link RESERVE} writes, is passed over: this hash is only read, never
 * trusted). A budget that expired meanwhile is not recreated. Answers how many were given back.
 */
export const RELEASE_HELD = `
local entries = redis.call('HVALS', KEYS[1])
for _, text in ipairs(entries) do
  local ok, r = pcall(cjson.decode, text)
  if ok and type(r) == 'table' and type(r.tokens) == 'number' and type(r.chain) == 'table' then
    for _, key in ipairs(r.chain) do
      if type(key) == 'string' and key:sub(1, #ARGV[1]) == ARGV[1] and redis.call('EXISTS', key) == 1 then
        redis.pcall('HINCRBY', key, 'reserved', -r.tokens)
      end
    end
  end
end
redis.call('DEL', KEYS[1])
return #entries`;


/**
 * The counts a budget script answered, or, when it found a budget in the chain corrupt
 * (`CHECKED`) or gone, an error naming its key (and field): the run fails on it, saying what
 * to mend, rather than on a Lua error or on a pool counted afresh.
 *
 * @throws RedisBackendError when a budget is corrupt or gone.
 * @internal
 */
export function budgetAnswer(answer: unknown): number[] {
  if (Array.isArray(answer) && answer[0] === 'gone') {
    throw new RedisBackendError(
      `the token budget's record ${shownKey(String(answer[1]))} in Redis is gone (Redis restarted without persistence, evicted the key under a volatile-* maxmemory-policy, or it expired a day after its pool's last request): the run stops so it cannot spend past its budget. Give Redis persistence (appendonly yes) and maxmemory-policy noeviction`,
    );
  }
  if (!Array.isArray(answer) || answer[0] !== 'corrupt') return answer as number[];
  const [, key, field, value] = answer.map(String) as [string, string, string, string];
  const what = field === '' ? `it is a ${shownKey(value)}, not a hash` : `its "${field}" is "${shownKey(value)}", not a whole number${field === 'used' || field === 'reserved' ? ' of at most 18 digits' : ''}`;
  throw new RedisBackendError(`the token budget stored at ${shownKey(key)} in Redis is corrupt: ${what}. Something other than rxharness wrote it; delete the key (a run still counting in it then stops on its budget being gone) or give the backend a Redis prefix of its own`);
}
