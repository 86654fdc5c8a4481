import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareIds, LogFollower, type FollowingReader, type StreamEntry } from '../../src/backend/log-follower.js';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { connectRedis } from '../../src/backend/redis-connection.js';
import { RedisEventLog } from '../../src/backend/redis-event-log.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { record, type EventRecording } from '../support/collect-events.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

const event = (n: number): AgentEvent => ({ type: 'Warning', runId: 'r', agentName: 'main', code: 'TEST', message: `event ${n}` }) as AgentEvent;
const seqs = (entries: readonly SequencedEvent[]): number[] => entries.map((e) => e.seq);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * The followers of one event log share one connection and one blocking XREAD. The backend's
 * blockMs is 1000 (its default), so anything that waited for an XREAD to time out shows.
 */
describe.skipIf(!HAS_REDIS)('following Redis event logs on one shared connection', () => {
  let redis: RedisServer;
  let backend: RedisBackend;
  let probe: Redis;
  /** How many clients Redis knows with no follower open: the backend's own and the probe. */
  let idle = 0;
  let n = 0;
  /** A fresh run id (the file shares one backend). */
  const run = (name: string): string => `${name}-${++n}`;
  /** Every client Redis knows (the probe included, before and after alike). */
  const clients = async (): Promise<number> => String(await probe.client('LIST')).trim().split('\n').length;
  const backTo = async (count: number): Promise<void> => waitFor(async () => (await clients()) === count);
  /** Waits for the follower connections of earlier tests to be gone (closing is asynchronous), then counts. */
  const baseline = async (): Promise<number> => {
    await backTo(idle);
    return idle;
  };
  /**
   * How many clients are blocked in an `XREAD` now. A follower seen blocked after it delivered
   * is blocked in its NEXT read (Redis unblocks a client before replying to it).
   */
  const blockedReads = async (): Promise<number> =>
    String(await probe.client('LIST'))
      .split('\n')
      .filter((line) => /\bflags=\w*b/.test(line) && /\bcmd=xread\b/.test(line)).length;
  /** Waits until the one follower of the test is blocked in its XREAD (none other is left: see `baseline`). */
  const readBlocks = async (): Promise<void> => waitFor(async () => (await blockedReads()) === 1);

  beforeAll(async () => {
    redis = await startRedis();
    backend = await redisBackend({ url: redis.url, prefix: 'follow', retentionMs: 60_000 });
    probe = await connectRedis(redis.url, 5000);
    idle = await clients();
  });
  afterAll(async () => {
    probe?.disconnect();
    await backend?.close();
    await redis?.stop();
  });

  it('50 readers of 50 live logs use one connection between them, each getting its own events in order, ending at its end entry', async () => {
    const log = backend.eventLog;
    const ids = Array.from({ length: 50 }, () => run('many'));
    await Promise.all(ids.map((id) => log.append({ runId: id, seq: 1, event: event(1) })));
    const before = await baseline();
    const readers = ids.map((id) => record(log.read(id, 0)));
    await waitFor(() => readers.every((r) => r.events.length === 1));
    for (let seq = 2; seq <= 5; seq++) await Promise.all(ids.map((id) => log.append({ runId: id, seq, event: event(seq) })));
    await waitFor(() => readers.every((r) => r.events.length === 5));
    const during = await clients();
    expect(during - before).toBeLessThanOrEqual(2);
    expect(during - before).toBe(1);
    await Promise.all(ids.map((id) => log.end(id, { kind: 'complete' })));
    await Promise.all(readers.map((r) => r.done));
    readers.forEach((r, i) => {
      expect(r.completed).toBe(true);
      expect(seqs(r.events)).toEqual([1, 2, 3, 4, 5]);
      expect(r.events.every((e) => e.runId === ids[i])).toBe(true);
      expect(r.events[3]!.event).toEqual(event(4));
    });
    await backTo(before); // the last reader gone, the follower connection is closed
  });

  it('two readers of one log at different positions each get exactly their events, once', async () => {
    const log = backend.eventLog;
    const id = run('two');
    for (let seq = 1; seq <= 3; seq++) await log.append({ runId: id, seq, event: event(seq) });
    const early = record(log.read(id, 0));
    await waitFor(() => early.events.length === 3);
    for (let seq = 4; seq <= 6; seq++) await log.append({ runId: id, seq, event: event(seq) });
    await waitFor(() => early.events.length === 6);
    // Joins while the first follows, from an older position than the follower reads at.
    const late = record(log.read(id, 2));
    const fresh = record(log.read(id, 6));
    for (let seq = 7; seq <= 9; seq++) await log.append({ runId: id, seq, event: event(seq) });
    await log.end(id, { kind: 'complete' });
    await Promise.all([early.done, late.done, fresh.done]);
    expect(seqs(early.events)).toEqual(range(1, 9));
    expect(seqs(late.events)).toEqual(range(3, 9));
    expect(seqs(fresh.events)).toEqual([7, 8, 9]);
    expect(early.completed && late.completed && fresh.completed).toBe(true);
  });

  it('gives a reader behind the XREAD in flight what lies between (the XREAD reads from the oldest reader), each entry once', async () => {
    // On the follower itself: a reader whose position is older than the blocked XREAD's.
    const { redis: command } = backend.parts;
    const key = backend.parts.keys.log(run('behind'));
    await baseline(); // no other follower: the blocked XREAD seen below is this one's
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) ids.push(String(await command.xadd(key, '*', 'n', String(i))));
    // A minute's block: any event seen within the waits below (10 s at most, far less in
    // practice) came through the interrupt, not through the XREAD timing out.
    const follower = new LogFollower(command, { blockMs: 60_000, connectTimeoutMs: 5000 });
    const failures: Error[] = [];
    const reader = (last: string): Omit<FollowingReader, 'last'> & { last: string; got: string[] } => {
      const got: string[] = [];
      return {
        key,
        runId: 'behind',
        last,
        got,
        deliver(entries: readonly StreamEntry[]) {
          for (const [id, fields] of entries) {
            if (compareIds(id, this.last) <= 0) continue;
            got.push(fields[1]!);
            this.last = id;
          }
        },
        fail: (e) => failures.push(e),
      };
    };
    try {
      const ahead = reader(ids[2]!);
      follower.follow(ahead);
      await readBlocks(); // its XREAD blocks, after the third entry
      const behind = reader(ids[0]!);
      follower.follow(behind);
      await waitFor(() => behind.got.length === 2, 10_000);
      expect(behind.got).toEqual(['2', '3']);
      await command.xadd(key, '*', 'n', '4');
      await waitFor(() => ahead.got.length === 1 && behind.got.length === 3, 10_000);
      expect(ahead.got).toEqual(['4']);
      expect(behind.got).toEqual(['2', '3', '4']);
      // An entry that wakes the XREAD before the interrupt lands is not given to a reader
      // the XREAD did not read for (it would skip what lies between).
      await readBlocks(); // blocked again, after the fourth
      const third = reader(ids[1]!);
      void command.xadd(key, '*', 'n', '5');
      follower.follow(third);
      await waitFor(() => third.got.length === 3, 10_000);
      expect(third.got).toEqual(['3', '4', '5']);
      await waitFor(() => ahead.got.length === 2 && behind.got.length === 4, 10_000);
      expect(ahead.got).toEqual(['4', '5']);
      expect(behind.got).toEqual(['2', '3', '4', '5']);
      expect(failures).toEqual([]);
    } finally {
      follower.close();
    }
  });

  it('a reader joining while the shared XREAD blocks gets its first event through the interrupt, not the XREAD timing out', async () => {
    // A log of its own with a minute's block (the backend's is a second): a joiner's event can
    // only come within the waits below (10 s at most) through the CLIENT UNBLOCK.
    const { redis: command, keys } = backend.parts;
    const log = new RedisEventLog(command, keys, { retentionMs: 60_000, maxLiveMs: 60_000, blockMs: 60_000, connectTimeoutMs: 5000 });
    const anchor = run('anchor');
    await baseline(); // no other follower: the blocked XREAD seen below is this log's
    await log.append({ runId: anchor, seq: 1, event: event(1) });
    const first = record(log.read(anchor, 0));
    await waitFor(() => first.events.length === 1);
    const joiners: EventRecording<SequencedEvent>[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        await readBlocks(); // the XREAD blocks again (after the previous joiner's event)
        const id = run('join');
        await log.open(id);
        const joiner = record(log.read(id, 0));
        joiners.push(joiner);
        await log.append({ runId: id, seq: 1, event: event(1) }); // after its replay: it must be followed
        await waitFor(() => joiner.events.length === 1, 10_000);
        expect(seqs(joiner.events)).toEqual([1]);
        joiner.subscription.unsubscribe();
      }
      // The anchor's reader still follows on the same blocked XREAD.
      await log.append({ runId: anchor, seq: 2, event: event(2) });
      await waitFor(() => first.events.length === 2, 10_000);
    } finally {
      for (const r of [first, ...joiners]) r.subscription.unsubscribe();
      log.closeReaders();
    }
  });

  it('closes the follower connection once every reader has unsubscribed, and opens one again for the next', async () => {
    const log = backend.eventLog;
    const [a, b] = [run('unsub'), run('unsub')];
    await log.append({ runId: a, seq: 1, event: event(1) });
    await log.append({ runId: b, seq: 1, event: event(1) });
    const before = await baseline();
    const readers = [record(log.read(a, 0)), record(log.read(a, 0)), record(log.read(b, 0))];
    await waitFor(() => readers.every((r) => r.events.length === 1));
    expect(await clients()).toBe(before + 1);
    readers[0]!.subscription.unsubscribe();
    readers[2]!.subscription.unsubscribe();
    await log.append({ runId: a, seq: 2, event: event(2) });
    await waitFor(() => readers[1]!.events.length === 2); // the one left still follows
    expect(seqs(readers[0]!.events)).toEqual([1]);
    readers[1]!.subscription.unsubscribe();
    await backTo(before);
    const again = record(log.read(b, 0));
    await log.append({ runId: b, seq: 2, event: event(2) });
    await waitFor(() => again.events.length === 2);
    expect(await clients()).toBe(before + 1);
    again.subscription.unsubscribe();
    await backTo(before);
  });

  it('ends the followers of a deleted log with UnknownRunError, also while other logs keep the XREAD busy; the others go on', async () => {
    const log = backend.eventLog;
    const [gone, busy, quiet] = [run('gone'), run('busy'), run('quiet')];
    for (const id of [gone, busy, quiet]) await log.append({ runId: id, seq: 1, event: event(1) });
    const readers = [gone, gone, busy, quiet].map((id) => record(log.read(id, 0)));
    await waitFor(() => readers.every((r) => r.events.length === 1));
    let seq = 1;
    const ticking = setInterval(() => void log.append({ runId: busy, seq: ++seq, event: event(seq) }), 100);
    try {
      await log.delete(gone);
      // No time limit but the test's: with busy neighbours the XREAD never times out, so
      // without the quiet-stream check these readers would never end.
      await Promise.all([readers[0]!.done, readers[1]!.done]);
    } finally {
      clearInterval(ticking);
    }
    expect(readers[0]!.error).toMatchObject({ name: 'UnknownRunError' });
    expect(readers[1]!.error).toMatchObject({ name: 'UnknownRunError' });
    await waitFor(() => readers[2]!.events.length === seq);
    await log.append({ runId: quiet, seq: 2, event: event(2) });
    await log.end(busy, { kind: 'complete' });
    await log.end(quiet, { kind: 'failed', message: 'boom' });
    await Promise.all([readers[2]!.done, readers[3]!.done]);
    expect(seqs(readers[2]!.events)).toEqual(range(1, seq));
    expect(readers[2]!.completed).toBe(true);
    expect(seqs(readers[3]!.events)).toEqual([1, 2]);
    expect(String(readers[3]!.error)).toContain('boom');
  });

  it('a corrupt entry is skipped by the readers of its log, which go on; the shared loop goes on for the others', async () => {
    const log = backend.eventLog;
    const [bad, good] = [run('bad'), run('good')];
    await log.append({ runId: bad, seq: 1, event: event(1) });
    await log.append({ runId: good, seq: 1, event: event(1) });
    const readers = [record(log.read(bad, 0)), record(log.read(good, 0))];
    await waitFor(() => readers.every((r) => r.events.length === 1));
    await backend.parts.redis.xadd(backend.parts.keys.log(bad), '*', 's', '2', 'e', '{not json');
    await log.append({ runId: bad, seq: 2, event: event(2) });
    await log.end(bad, { kind: 'complete' });
    await readers[0]!.done;
    expect(seqs(readers[0]!.events)).toEqual([1, 2]);
    expect(readers[0]!.completed).toBe(true);
    // A reader replaying the corrupt entry skips it the same way, without following.
    const replaying = record(log.read(bad, 0));
    await replaying.done;
    expect(seqs(replaying.events)).toEqual([1, 2]);
    await log.append({ runId: good, seq: 2, event: event(2) });
    await log.end(good, { kind: 'complete' });
    await readers[1]!.done;
    expect(seqs(readers[1]!.events)).toEqual([1, 2]);
    expect(readers[1]!.completed).toBe(true);
  });

  it('closing the backend fails every follower with the backend-closed error and closes the follower connection', async () => {
    const before = await baseline();
    const other = await redisBackend({ url: redis.url, prefix: 'follow' });
    const ids = [run('close'), run('close'), run('close')];
    for (const id of ids) await other.eventLog.append({ runId: id, seq: 1, event: event(1) });
    const readers = [...ids, ids[0]!].map((id) => record(other.eventLog.read(id, 0)));
    await waitFor(() => readers.every((r) => r.events.length === 1));
    await other.close();
    await Promise.all(readers.map((r) => r.done));
    for (const r of readers) {
      expect(r.error).toMatchObject({ name: 'RedisBackendError' });
      expect(String(r.error)).toContain('closed');
    }
    await backTo(before); // the backend's connections and the follower's
  });

  it('Redis going away ends every follower with a RedisBackendError (nothing thrown out of the loop)', { timeout: 20_000 }, async () => {
    const own = await startRedis();
    const other = await redisBackend({ url: own.url, prefix: 'follow', connectTimeoutMs: 1000 });
    const readers: EventRecording<SequencedEvent>[] = [];
    try {
      for (const id of ['x', 'y']) await other.eventLog.append({ runId: id, seq: 1, event: event(1) });
      readers.push(record(other.eventLog.read('x', 0)), record(other.eventLog.read('y', 0)));
      await waitFor(() => readers.every((r) => r.events.length === 1));
      await own.stop();
      await Promise.all(readers.map((r) => r.done));
      for (const r of readers) expect(r.error).toMatchObject({ name: 'RedisBackendError' });
      expect(String(readers[1]!.error)).toContain('reading the event log of y');
    } finally {
      await other.close();
      await own.stop();
    }
  });
});
