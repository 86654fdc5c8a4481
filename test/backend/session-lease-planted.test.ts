/**
 * A session's lease key (`<prefix>:claim:<session>`) planted by someone else than a session
 * store. One of another type used to fail every claim of the session with `WRONGTYPE`, for
 * ever (a planted key has no expiry); now it is replaced by the claimer's lease, with one
 * warning naming the key. A string there is a holder: the claim is refused as before, but
 * the holder it names (shown in the "session is busy" error) is cut to 200 characters with
 * its escapes marked.
 */
import { describe, expect, it } from 'vitest';
import { badDataWarnings, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

describe.skipIf(!HAS_REDIS)('planted session leases', () => {
  const scale = useScaleKits();

  it('a key of another type is replaced by the lease, with a warning; a planted holder is shown cut and marked', async () => {
    const k = await scale.kit(60_000);
    const backend = await k.backend();
    const { redis, keys } = backend.parts;
    await redis.hset(keys.claim('ses_hash'), 'owner', 'run_x');
    await redis.rpush(keys.claim('ses_list'), 'run_x');
    await redis.set(keys.claim('ses_text'), `\u001b[2J${'z'.repeat(100_000)}`);
    const warnings = badDataWarnings();
    try {
      for (const sessionId of ['ses_hash', 'ses_list']) {
        const claim = await backend.sessions.claim(sessionId, 'run_mine');
        expect(claim.granted, sessionId).toBe(true);
        expect(await redis.get(keys.claim(sessionId))).toBe('run_mine');
        // Held: a second claimer is refused, naming the holder.
        expect(await backend.sessions.claim(sessionId, 'run_other')).toEqual({ granted: false, owner: 'run_mine' });
        if (claim.granted) claim.release();
      }
      await warningsDelivered();
      expect(warnings.messages).toEqual([
        `Redis key ${keys.claim('ses_hash')} was a hash, which a session store never writes there: replaced by the lease of run_mine.`,
        `Redis key ${keys.claim('ses_list')} was a list, which a session store never writes there: replaced by the lease of run_mine.`,
      ]);
      expect(await backend.sessions.claim('ses_text', 'run_mine')).toEqual({ granted: false, owner: `<U+001B>[2J${'z'.repeat(188)}…` });
    } finally {
      warnings.stop();
    }
  });
});
