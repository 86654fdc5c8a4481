/**
 * The other bad-data warnings name planted keys as `shownKey` does too: a key of another type
 * under `results:` (found when an engine starts), a conversation listed by the index whose
 * summary is of another type, and a task record planted under a listed conversation's id. Either key is the attacker's text: 100,000 characters must not
 * flood the terminal, and escapes must not clear it, retitle it or turn the message around.
 */
import { describe, expect, it } from 'vitest';
import { markInvisible } from '../../src/text/visible-text.js';
import { badDataWarnings, plantTaskRecord, warningsDelivered } from './planted-data.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

const STALL_MS = 60_000;
/** Clears the screen, retitles the window, and a bidi override turns what follows around. */
const ESCAPES = '\u001b[2J\u001b]0;owned\u0007\u202e\u009b31m';
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202e]/;

describe.skipIf(!HAS_REDIS)('planted keys in the other bad-data warnings', () => {
  const scale = useScaleKits();

  it('a results key of another type is named by its start, 200 characters once marked, escapes marked', async () => {
    const k = await scale.kit(STALL_MS);
    const { redis, keys } = (await k.backend()).parts;
    const planted = keys.results(`ses_${ESCAPES}${'x'.repeat(100_000)}`);
    await redis.rpush(planted, 'not a hash');
    await redis.pexpire(planted, 60_000);
    const warnings = badDataWarnings();
    try {
      await k.backend(); // loads the waiting results: finds the planted key
      await warningsDelivered();
      const said = warnings.messages.filter((m) => m.includes('is a list, not a hash'));
      expect(said).toHaveLength(1);
      const [message] = said as [string];
      expect(message).toContain(`Redis key ${markInvisible(planted).slice(0, 199)}… is a list, not a hash`);
      expect(message).toContain(':results:ses_<U+001B>[2J<U+001B>]0;owned<U+0007><U+202E><U+009B>31m');
      expect(message).not.toContain('x'.repeat(200));
      expect(message).not.toMatch(CONTROLS);
      // The key shown (200 characters once marked) and the fixed text around it.
      expect(message.length).toBeLessThan(450);
      expect(await redis.exists(planted)).toBe(1); // left as it was
    } finally {
      warnings.stop();
    }
  });

  it('a listed conversation whose summary is of another type is named the same way, key and id', async () => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys } = backend.parts;
    const id = `${ESCAPES}${'y'.repeat(100_000)}`;
    await redis.rpush(keys.session(id), JSON.stringify({ role: 'user', content: 'planted' }));
    await redis.set(keys.sessionSummary(id), 'not a hash');
    await redis.zadd(keys.sessionIndex(), Date.now(), id);
    const warnings = badDataWarnings();
    try {
      const listed = await backend.sessions.list!({ limit: 10 });
      await warningsDelivered();
      expect(listed.map((s) => s.sessionId)).not.toContain(id);
      const said = warnings.messages.filter((m) => m.includes('is not a hash'));
      expect(said).toHaveLength(1);
      const [message] = said as [string];
      expect(message).toContain(`${markInvisible(keys.sessionSummary(id)).slice(0, 199)}… is not a hash`);
      expect(message).toContain(`conversation "${markInvisible(id).slice(0, 199)}…" is not listed`);
      expect(message).not.toContain('y'.repeat(200));
      expect(message).not.toMatch(CONTROLS);
      expect(message.length).toBeLessThan(1000);
    } finally {
      warnings.stop();
      await redis.del(keys.session(id), keys.sessionSummary(id));
      await redis.zrem(keys.sessionIndex(), id);
    }
  });

  it('a task record planted under a listed conversation names key, owner and id the same way', async () => {
    const k = await scale.kit(STALL_MS);
    const backend = await k.backend();
    const { redis, keys } = backend.parts;
    const victim = `${ESCAPES}${'v'.repeat(1000)}`;
    const attacker = `${ESCAPES}attacker`;
    await backend.sessions.append(victim, [{ role: 'user', content: 'a listed conversation' }]);
    await plantTaskRecord(redis, keys, victim, attacker);
    const warnings = badDataWarnings();
    try {
      expect(await backend.sessions.loadTaskInfo!(victim)).toBeUndefined();
      await warningsDelivered();
      const said = warnings.messages.filter((m) => m.includes('as the owner of task'));
      expect(said).toHaveLength(1);
      const [message] = said as [string];
      expect(message).toContain(`Redis key ${markInvisible(keys.taskInfo(victim)).slice(0, 199)}… names "${markInvisible(attacker)}" as the owner of task "${markInvisible(victim).slice(0, 199)}…"`);
      expect(message).not.toContain('v'.repeat(200));
      expect(message).not.toMatch(CONTROLS);
      expect(message.length).toBeLessThan(1500);
    } finally {
      warnings.stop();
      await backend.sessions.delete!(victim).catch(() => undefined);
      await redis.del(keys.taskInfo(victim));
    }
  });
});
