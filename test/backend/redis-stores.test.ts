import { lastValueFrom, toArray } from 'rxjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { redisBackend } from '../../src/backend/redis-backend.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { record } from '../support/collect-events.js';
import { redisBackendPerFile } from './redis-backend-per-file.js';
import { HAS_REDIS } from './redis-server.js';
import { waitFor } from './scale-kit.js';

const event = (n: number): AgentEvent => ({ type: 'Warning', runId: 'r', agentName: 'main', code: 'TEST', message: `event ${n}` }) as AgentEvent;
const seqs = (entries: readonly SequencedEvent[]): number[] => entries.map((e) => e.seq);

describe.skipIf(!HAS_REDIS)('the Redis event log and session store', () => {
  const redisFile = redisBackendPerFile('stores', 60_000);
  const clients = async (): Promise<number> => String(await redisFile.backend.parts.redis.client('LIST')).trim().split('\n').length;
  /** The clients Redis knows before any reader follows (the backend's own): counted once the backend is up. */
  let idle = 0;
  beforeAll(async () => {
    idle = await clients();
  });

  it('replays from any position, follows live appends, and completes after the end', async () => {
    const log = redisFile.backend.eventLog;
    for (let seq = 1; seq <= 3; seq++) await log.append({ runId: 'live', seq, event: event(seq) });
    const all = record(log.read('live', 0));
    const later = record(log.read('live', 2));
    await waitFor(() => all.events.length === 3);
    for (let seq = 4; seq <= 6; seq++) await log.append({ runId: 'live', seq, event: event(seq) });
    await log.end('live', { kind: 'complete' });
    await all.done;
    await later.done;
    expect(seqs(all.events)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seqs(later.events)).toEqual([3, 4, 5, 6]);
    expect(all.events[4]!.event).toEqual(event(5));
    expect(all.completed && later.completed).toBe(true);
    // A finished log is read without a connection of its own, and expires after the retention.
    expect(seqs(await lastValueFrom(log.read('live', 4).pipe(toArray())))).toEqual([5, 6]);
    const ttl = await redisFile.backend.parts.redis.pttl(redisFile.backend.parts.keys.log('live'));
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('ends readers as the log ended: AbortError when cancelled, the error when failed, UnknownRunError when unknown or deleted', async () => {
    const log = redisFile.backend.eventLog;
    await log.append({ runId: 'c', seq: 1, event: event(1) });
    await log.end('c', { kind: 'cancelled', reason: 'stop' });
    await log.append({ runId: 'f', seq: 1, event: event(1) });
    await log.end('f', { kind: 'failed', message: 'boom' });
    await expect(lastValueFrom(log.read('c', 0))).rejects.toMatchObject({ name: 'AbortError' });
    await expect(lastValueFrom(log.read('f', 0))).rejects.toThrow('boom');
    await expect(lastValueFrom(log.read('nope', 0))).rejects.toMatchObject({ name: 'UnknownRunError' });
    await log.append({ runId: 'd', seq: 1, event: event(1) });
    const reader = record(log.read('d', 0));
    await waitFor(() => reader.events.length === 1);
    await log.delete('d');
    await reader.done;
    expect(reader.error).toMatchObject({ name: 'UnknownRunError' });
  });

  it('follows on one shared connection, closed when the last reader unsubscribes', async () => {
    // The follower connection of earlier tests' readers is closed asynchronously: wait for it.
    await waitFor(async () => (await clients()) === idle);
    const before = idle;
    await redisFile.backend.eventLog.append({ runId: 'u', seq: 1, event: event(1) });
    const readers = [1, 2, 3].map(() => record(redisFile.backend.eventLog.read('u', 0)));
    await waitFor(() => readers.every((r) => r.events.length === 1));
    expect(await clients()).toBe(before + 1); // three followers, one connection
    for (const r of readers) r.subscription.unsubscribe();
    await waitFor(async () => (await clients()) === before);
  });

  it('keeps sessions, task owners and grants for every process', async () => {
    const other = await redisBackend({ url: redisFile.redis.url, prefix: 'stores' });
    try {
      const { sessions } = redisFile.backend;
      await sessions.append('s1', [{ role: 'user', content: 'hi' }]);
      await sessions.append('s1', [{ role: 'assistant', content: 'hello' }]);
      expect(await other.sessions.load('s1')).toEqual([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ]);
      const info = { taskId: 't1', agentName: 'explorer', description: 'd', ownerSessionId: 's1' };
      await sessions.saveTaskInfo(info);
      expect(await other.sessions.loadTaskInfo('t1')).toEqual(info);
      await sessions.saveGrant('s1', { toolName: 'bash', subject: 'ls' });
      expect(await other.sessions.loadGrants('s1')).toEqual([{ toolName: 'bash', subject: 'ls' }]);
      await other.sessions.delete('s1');
      await other.sessions.delete('t1');
      expect(await sessions.load('s1')).toEqual([]);
      expect(await sessions.loadGrants('s1')).toEqual([]);
      expect(await sessions.loadTaskInfo('t1')).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
