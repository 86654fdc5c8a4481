/**
 * `readEachAlone` (after a `WRONGTYPE` from the shared `XREAD`) under random flips of keys
 * between a string, a stream and nothing, made before a read or while it is under way (on
 * another connection): the readers of the healthy logs never fail and get exactly what was
 * written after their ids; a flipped key's readers either fail with the "not a stream"
 * message naming what the read met (a string: the type is asked in the read's own `MULTI`),
 * or read on (a stream again: only entries written to it after the id), or get nothing
 * (gone). A flip made before the read has exactly its outcome.
 */
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FollowingReader, StreamEntry } from '../../src/backend/follower-reader.js';
import { readEachAlone } from '../../src/backend/not-a-stream.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';

const HEALTHY = ['log:h0', 'log:h1', 'log:h2'];
const FLIPPED = ['log:f0', 'log:f1'];
type Held = 'string' | 'stream' | 'missing';

/** A reader as the follower keeps one: the entries it was given, and its failure if any. */
class Reader implements FollowingReader {
  readonly got: StreamEntry[] = [];
  failure: Error | undefined;
  last = '0-0';
  constructor(readonly key: string) {}
  get runId(): string {
    return this.key;
  }
  deliver(entries: readonly StreamEntry[]): void {
    this.got.push(...entries);
  }
  fail(error: Error): void {
    this.failure = error;
  }
}

const step = fc.record({
  flips: fc.array(fc.record({ key: fc.constantFrom(...FLIPPED), to: fc.constantFrom<Held>('string', 'stream', 'missing'), during: fc.boolean() }), { maxLength: 4 }),
  appends: fc.array(fc.constantFrom(...HEALTHY), { maxLength: 4 }),
});

/** Makes `key` hold `to` (a stream: a new one, with one entry), as one command of `redis`. */
function flip(redis: Redis, key: string, to: Held): Promise<unknown> {
  const multi = redis.multi().del(key);
  if (to === 'string') multi.set(key, 'not a stream');
  if (to === 'stream') multi.xadd(key, '*', 's', '1', 'e', '{}');
  return multi.exec();
}

/** Compares stream ids (ms-seq). */
function after(id: string, than: string): boolean {
  const [a = 0, b = 0] = id.split('-').map(Number);
  const [c = 0, d = 0] = than.split('-').map(Number);
  return a !== c ? a > c : b > d;
}

describe.skipIf(!HAS_REDIS)('readEachAlone under random flips of keys', () => {
  let server: RedisServer;
  let redis: Redis;
  let other: Redis;
  beforeAll(async () => {
    server = await startRedis();
    redis = new Redis(server.url);
    other = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    other?.disconnect();
    await server?.stop();
  });

  it('never fails a healthy reader; a flipped one fails saying "not a stream", reads on, or gets nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        await redis.flushdb();
        const readers = new Map([...HEALTHY, ...FLIPPED].map((key) => [key, new Reader(key)]));
        const written = new Map<string, StreamEntry[]>(HEALTHY.map((key) => [key, []]));
        for (const key of HEALTHY) written.get(key)!.push([(await redis.xadd(key, '*', 'open', '1'))!, ['open', '1']]);
        const held = new Map<string, Held>(FLIPPED.map((key) => [key, 'missing']));
        for (const { flips, appends } of steps) {
          for (const { key, to } of flips.filter((f) => !f.during)) {
            await flip(redis, key, to);
            held.set(key, to);
          }
          for (const key of appends) {
            const id = await redis.xadd(key, '*', 's', '1', 'e', '{}');
            written.get(key)!.push([id!, ['s', '1', 'e', '{}']]);
          }
          const live = [...readers.values()].filter((r) => r.failure === undefined);
          const streams = new Map(live.map((r) => [r.key, { readers: new Set<FollowingReader>([r]) }]));
          const ids = new Map(live.map((r) => [r.key, r.last]));
          const asked = new Map(ids);
          const during = flips.filter((f) => f.during);
          const [read] = await Promise.all([readEachAlone(redis, streams, ids, 1000), ...during.map(({ key, to }) => flip(other, key, to))]);
          const before = new Map(held);
          for (const { key, to } of during) held.set(key, to);
          for (const [key, entries] of read) {
            const reader = readers.get(key)!;
            reader.deliver(entries);
            reader.last = entries.at(-1)?.[0] ?? reader.last;
          }
          for (const key of HEALTHY) {
            const reader = readers.get(key)!;
            expect(reader.failure).toBeUndefined();
            const got = read.find(([k]) => k === key)?.[1] ?? [];
            expect(got).toEqual(written.get(key)!.filter(([id]) => after(id, asked.get(key)!)));
          }
          for (const key of FLIPPED) {
            if (!asked.has(key)) continue; // failed before: the follower no longer reads it
            const reader = readers.get(key)!;
            const got = read.find(([k]) => k === key)?.[1] ?? [];
            const sure = !during.some((f) => f.key === key);
            if (reader.failure) {
              expect(reader.failure.message).toContain(`The event log ${key} in Redis is not a stream but a string`);
              expect(got).toEqual([]);
              if (sure) expect(before.get(key)).toBe('string');
            } else {
              for (const [id] of got) expect(after(id, asked.get(key)!)).toBe(true);
              if (sure) expect(before.get(key)).not.toBe('string');
              if (sure && before.get(key) === 'missing') expect(got).toEqual([]);
            }
            // A string met only by a read that did not fail its reader: never.
            if (sure && before.get(key) === 'string') expect(reader.failure).toBeDefined();
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});
