import type { Redis } from 'ioredis';
import type { SessionClaim } from '../session/session-claim.js';
import { warnBadData } from './bad-data-warning.js';
import { redisFailure } from './redis-connection.js';

/** Extends the lease only while `owner` still holds it (it may have expired and been taken since). */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
/** Deletes the lease only while `owner` holds it: a late release must not free another owner's. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Claims a session across every process on the Redis: a lease, `SET key owner NX PX ttl`.
 * Granted, it is renewed every third of `ttlMs` while the claim lives and deleted when
 * released (both by a script that first checks the owner, so a lease that expired and was
 * taken by someone else is left alone); an owner that dies stops renewing, and Redis expires
 * the lease `ttlMs` later at most. Refused, it names the owner Redis holds.
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
  try {
    // A lease that expires between the SET and the GET: try again (three times at most).
    for (let attempt = 0; attempt < 3; attempt++) {
      if ((await redis.set(key, owner, 'PX', ttlMs, 'NX')) === 'OK') return held(redis, key, owner, ttlMs);
      const holder = await redis.get(key);
      if (holder !== null) return { granted: false, owner: holder };
    }
  } catch (e) {
    throw redisFailure(`claiming the session at ${key}`, e);
  }
  return { granted: false, owner: 'a run whose lease keeps changing hands' };
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
