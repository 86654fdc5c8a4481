/**
 * RedisSessionStore.list({ limit, after }) on a real redis-server, as attacks: a page of 50
 * out of 10,000 conversations costs a bounded number of commands and reads no transcript
 * (every command counted with MONITOR), paging while conversations are added lists each one
 * exactly once, a planted summary is skipped with a warning, and a conversation written
 * before summaries is still listed by its first prompt.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../src/session/session-store.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';

const user = (content: string) => ({ role: 'user' as const, content });
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe.skipIf(!HAS_REDIS)('RedisSessionStore.list() pages', () => {
  const redisFile = redisBackendPerFile('paging', 600_000);

  async function fill(prefix: string, count: number): Promise<string[]> {
    const ids = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    for (let i = 0; i < ids.length; i += 500) await Promise.all(ids.slice(i, i + 500).map((id) => redisFile.backend.sessions.append(id, [user(`question ${id}`)])));
    return ids;
  }

  /** Every command redis-server runs while `run` runs (scripts' own commands included), lower-cased with their first key. */
  async function commandsOf(run: () => Promise<unknown>): Promise<string[][]> {
    const base = new Redis(redisFile.redis.url);
    const monitor = await base.monitor();
    const seen: string[][] = [];
    const marker = `end-of-run-${Math.random()}`;
    const ended = new Promise<void>((resolve) => {
      monitor.on('monitor', (_time: string, args: string[]) => {
        if (args[0]?.toLowerCase() === 'echo' && args[1] === marker) resolve();
        else seen.push([args[0]!.toLowerCase(), ...args.slice(1, 2)]);
      });
    });
    try {
      await run();
      await redisFile.backend.parts.redis.echo(marker); // MONITOR keeps order: everything before it is seen
      await ended;
    } finally {
      monitor.disconnect();
      base.disconnect();
    }
    return seen;
  }

  it('answers a page of 50 out of 10,000 conversations in a bounded number of commands, reading no transcript', async () => {
    await fill('many', 10_000);
    let page: readonly SessionSummary[] = [];
    const commands = await commandsOf(async () => (page = await redisFile.backend.sessions.list!({ limit: 50 })));
    expect(page).toHaveLength(50);
    for (const summary of page) expect(summary.title).toBe(`question ${summary.sessionId}`);
    // Two round trips: the paging script (and its own commands), then 3 lookups per listed id.
    expect(commands.length).toBeLessThanOrEqual(5 + 3 * 50);
    const reads = commands.filter(([name, key]) => name === 'lrange' || (name === 'get' && /:(session|archive|archived):/.test(key ?? '')));
    expect(reads).toEqual([]);
    await redisFile.backend.parts.redis.del(redisFile.backend.parts.keys.sessionIndex());
  }, 120_000);

  it('lists each conversation exactly once across pages of 40 while conversations are added between pages', async () => {
    const ids = await fill('old', 300);
    await tick();
    const listed: SessionSummary[] = [];
    let added = 0;
    for (let after: SessionSummary | undefined; ; ) {
      const page = await redisFile.backend.sessions.list!({ limit: 40, ...(after ? { after } : {}) });
      listed.push(...page);
      if (page.length < 40) break;
      after = page.at(-1);
      await tick();
      await fill(`added${added++}_`, 3);
    }
    const seen = listed.map((s) => s.sessionId);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => id.startsWith('old')).sort()).toEqual(ids.slice().sort());
    expect(added).toBeGreaterThanOrEqual(7);
    expect((await redisFile.backend.sessions.list!({ limit: 1 }))[0]!.sessionId.startsWith('added')).toBe(true);
    await redisFile.backend.parts.redis.del(redisFile.backend.parts.keys.sessionIndex());
  }, 60_000);

  it('skips a conversation whose summary was replaced by a value of another type, with a warning; lists one written before summaries', async () => {
    const { redis: client, keys } = redisFile.backend.parts;
    await redisFile.backend.sessions.append('fine', [user('a fine one')]);
    await redisFile.backend.sessions.append('planted', [user('a planted summary')]);
    await client.del(keys.sessionSummary('planted'));
    await client.set(keys.sessionSummary('planted'), 'not a hash');
    // As an earlier version wrote it: the messages and the index, no summary.
    await client.rpush(keys.session('legacy'), JSON.stringify(user('from an older version')));
    await client.zadd(keys.sessionIndex(), Date.now() + 1, 'legacy');
    const warnings: string[] = [];
    const listen = (warning: Error & { code?: string }) => {
      if (warning.code === 'RXHARNESS_BAD_REDIS_DATA') warnings.push(warning.message);
    };
    process.on('warning', listen);
    let listed: readonly SessionSummary[];
    try {
      listed = await redisFile.backend.sessions.list!({ limit: 10 });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
    }
    expect(listed.map((s) => [s.sessionId, s.title])).toEqual([
      ['legacy', 'from an older version'],
      ['fine', 'a fine one'],
    ]);
    expect(warnings.join('\n')).toContain(`${keys.sessionSummary('planted')} is not a hash`);
    // The legacy one now has its summary; the planted one is mended by its next write.
    expect(await client.hget(keys.sessionSummary('legacy'), 'title')).toBe('from an older version');
    await redisFile.backend.sessions.append('planted', [user('again')]);
    expect((await redisFile.backend.sessions.list!({ limit: 10 })).map((s) => s.sessionId)).toContain('planted');
  });
});
