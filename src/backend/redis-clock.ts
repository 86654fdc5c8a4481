/**
 * The start of a Lua script that reads Redis's own clock (TIME) into `now`, in milliseconds:
 * what every script that scores or ages things by time uses, so app and worker machines
 * whose clocks drift apart still compare times of one clock. Effects replication is the only
 * mode from Redis 7 and the default from 5; asked for explicitly where the call still exists,
 * as an older server needs it before TIME (and so before the script's first write).
 *
 * @internal
 */
export const REDIS_NOW = `if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
