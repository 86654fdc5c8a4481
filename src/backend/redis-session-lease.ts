import type { Redis } from 'ioredis';
import type { SessionClaim } from '../session/session-claim.js';
import { shownKey, warnBadData } from './bad-data-warning.js';
import { redisFailure } from './redis-connection.js';

/**
 * Takes the lease if nobody holds it, else answers who does, in one step. A key of another
 * type than a string is no lease (only this script and its renewal write there): replaced,
 * and its type answered for the warning. Left, it would hold the session for ever (a planted
 * key has no expiry) and fail every claim with `WRONGTYPE`; replaced in the script, no two
 * claimers can both find it so and both be granted.
 */
const CLAIM = `local found, replaced = redis.call('TYPE', KEYS[1]).ok, ''
if found ~= 'string' and found ~= 'none' then redis.call('DEL', KEYS[1]) replaced = found end
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return { 1, replaced } end
return { 0, replaced, redis.call('GET', KEYS[1]) }`;
/** Extends the lease only while `owner` still holds it (it may have expired and been taken since). */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
/** Deletes the lease only while `owner` holds it: a late release must not free another owner's. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Claims a session across every process on the Redis: a lease, `SET key owner NX PX ttl`.
 * Granted, it is renewed every third of `ttlMs` while the claim lives and deleted when
 * released (both by a script that first checks the owner, so a lease that expired and was
 * taken by someone else is left alone); an owner that dies stops renewing, and Redis expires
 * the lease `ttlMs` later at most. Refused, it names the owner Redis holds (as `shownKey`
 * shows it). A key of another type there is replaced, with a warning (`warnBadData`).
 *
 * A process frozen for longer than `ttlMs` (a debugger, a SIGSTOP) loses its lease: another
 * run may then take the session; the renewal notices and reports it once (`warnBadData`).
 *
 * @example
 * ```ts
 * const claim = await claimLease(redis, keys.claim('ses_1'), 'run_1', 30_000);
 * if (claim.granted) claim.release();
 * ```
 */
export async function claimLease(redis: Redis, key: string, owner: string, ttlMs: number): Promise<SessionClaim> {
  let answer: [number, string, string?];
  try {
    answer = (await redis.eval(CLAIM, 1, key, owner, ttlMs)) as [number, string, string?];
  } catch (e) {
    throw redisFailure(`claiming the session at ${key}`, e);
  }
  const [granted, replaced, holder] = answer;
  if (replaced !== '') warnBadData(key, `Redis key ${shownKey(key)} was a ${shownKey(replaced)}, which a session store never writes there: replaced by the lease of ${shownKey(owner)}.`);
  if (granted === 1) return held(redis, key, owner, ttlMs);
  // Shown in a "session is busy" error: a planted holder may be megabytes long, or hold escapes.
  return { granted: false, owner: shownKey(holder ?? '') };
}

function held(redis: Redis, key: string, owner: string, ttlMs: number): SessionClaim {
  let released = false;
  const renew = setInterval(() => {
    redis.eval(RENEW, 1, key, owner, ttlMs).then(
      (kept) => {
        if (kept !== 0 || released) return;
        clearInterval(renew);
        warnBadData(`lease:${key}`, `The lease ${key} of ${owner} was lost (its process was frozen for longer than the lease, or the key was deleted): another run may use the session.`);
      },
      () => undefined, // Redis is unreachable: the run's own reads and writes report it
    );
  }, Math.max(1, Math.floor(ttlMs / 3)));
  renew.unref(); // a lease never keeps the process alive
  return {
    granted: true,
    release(): void {
      if (released) return;
      released = true;
      clearInterval(renew);
      // Not awaited: should it fail, the lease expires by itself.
      redis.eval(RELEASE, 1, key, owner).catch(() => undefined);
    },
  };
}
