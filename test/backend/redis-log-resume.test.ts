/**
 * A reader of a Redis run log that lets go before the end (an SSE stream at a full socket)
 * and attaches again after its last seq goes on from where it stopped: it does not read the
 * log from its first entry again, nor pull a thousand entries for a consumer that takes a
 * few, and what it reads after is held to the log's order as if it had read it whole.
 */
import http from 'node:http';
import type { Redis } from 'ioredis';
import { take } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import { connectRedis } from '../../src/backend/redis-connection.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { streamRunEvents } from '../../src/http/stream-run-events.js';
import { UnknownRunError } from '../../src/runs/unknown-run-error.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { record } from '../support/collect-events.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { allCalls, calls } from './command-stats.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';

const served = httpServerPerTest();
const warning = (message: string): AgentEvent => ({ type: 'Warning', runId: 'r', agentName: 'main', code: 'TEST', message });
const start = (runId: string): AgentEvent => ({ type: 'RunStart', runId, agentName: 'main', sessionId: 's', prompt: 'go' });
const seqsOf = (events: readonly SequencedEvent[]): number[] => events.map((e) => e.seq);

/** Bytes Redis sent its clients so far (`INFO stats`). */
async function sentBytes(redis: Redis): Promise<number> {
  return Number(/^total_net_output_bytes:(\d+)/m.exec(await redis.info('stats'))?.[1] ?? 0);
}

/** Every byte of a response, read as fast as it comes. */
function readAll(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

describe.skipIf(!HAS_REDIS)('a Redis run log read again after where its reader stopped', () => {
  let redis: RedisServer;
  let backend: RedisBackend;
  let probe: Redis;
  let n = 0;
  beforeAll(async () => {
    redis = await startRedis();
    backend = await redisBackend({ url: redis.url, prefix: 'resume' });
    probe = await connectRedis(redis.url, 5000);
  });
  afterAll(async () => {
    probe?.disconnect();
    await backend?.close();
    await redis?.stop();
  });

  it('an SSE stream of a finished run of 5,000 events, pausing at every full socket, reads each entry about once', { timeout: 60_000 }, async () => {
    const runId = `big-${++n}`;
    const N = 5000;
    const text = 'x'.repeat(300);
    const pipeline = backend.parts.redis.pipeline();
    for (let seq = 1; seq <= N; seq++) pipeline.xadd(backend.parts.keys.log(runId), '*', 's', String(seq), 'e', JSON.stringify(warning(`${seq} ${text}`)));
    await pipeline.exec();
    await backend.eventLog.end(runId, { kind: 'complete' });
    let attaches = 0;
    const url = await served.serve((_req, res) => {
      const attach = (after: number) => {
        attaches += 1;
        return backend.eventLog.read(runId, after);
      };
      streamRunEvents(attach, 0, res, 0, () => true);
    });
    const [xranges, bytes] = [await calls(probe, 'xrange'), await sentBytes(probe)];
    const body = await readAll(url);
    const read = (await calls(probe, 'xrange')) - xranges;
    const pulled = (await sentBytes(probe)) - bytes;

    const seqs = [...body.matchAll(/^id: (\d+)\ndata: /gm)].map((m) => Number(m[1]));
    expect(seqs).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    expect(body.endsWith(`event: end\ndata: {}\nid: ${N + 1}\n\n`)).toBe(true);
    // about 1.6 MB in 16 KiB writes: the stream let go and came back about a hundred times
    expect(attaches).toBeGreaterThan(50);
    // one XRANGE per attach, and a few while the first reader's batches grow; read from the
    // start each time, it was thousands
    expect(read).toBeLessThanOrEqual(attaches + 10);
    // about twice what the stream took was pulled from Redis (a thousand entries a time: 25 times)
    expect(pulled).toBeLessThan(3 * body.length);
  });

  it('goes on with the order of the reader that stopped: a forged second RunStart after it is still skipped', async () => {
    const runId = `order-${++n}`;
    const key = backend.parts.keys.log(runId);
    await backend.eventLog.append({ runId, seq: 1, event: start(runId) });
    for (let seq = 2; seq <= 21; seq++) await backend.eventLog.append({ runId, seq, event: warning(String(seq)) });
    const first = record(backend.eventLog.read(runId, 0).pipe(take(20)));
    await first.done;
    expect(seqsOf(first.events).at(-1)).toBe(20);
    await backend.parts.redis.xadd(key, '*', 's', '22', 'e', JSON.stringify(start(runId))); // forged
    await backend.eventLog.append({ runId, seq: 22, event: warning('22') });
    await backend.eventLog.end(runId, { kind: 'complete' });
    const bad: string[] = [];
    const before = await calls(probe, 'xrange');
    const rest = record(backend.eventLog.read(runId, 20, (problem) => bad.push(problem)));
    await rest.done;
    expect(rest.completed).toBe(true);
    expect(rest.events.map((e) => `${e.seq} ${e.event.type}`)).toEqual(['21 Warning', '22 Warning']);
    expect(bad).toEqual([expect.stringContaining('a second RunStart (seq 22')]);
    // from where the first stopped, in one read (from the start: 23 entries, 16 then 32 asked for)
    expect((await calls(probe, 'xrange')) - before).toBe(1);
  });

  it('a log deleted since its reader stopped fails the next one with UnknownRunError at once, without following it', async () => {
    const runId = `gone-${++n}`;
    await backend.eventLog.append({ runId, seq: 1, event: warning('one') });
    const first = record(backend.eventLog.read(runId, 0).pipe(take(1)));
    await first.done;
    await backend.eventLog.delete(runId);
    const before = await allCalls(probe);
    const again = record(backend.eventLog.read(runId, 1));
    await again.done;
    expect(UnknownRunError.isInstance(again.error)).toBe(true);
    expect((await allCalls(probe)).get('xread') ?? 0).toBe(before.get('xread') ?? 0);
  });

  it('a new reader past a seq (an EventSource coming back with Last-Event-ID) still reads the log once from its start', async () => {
    const runId = `new-${++n}`;
    for (let seq = 1; seq <= 40; seq++) await backend.eventLog.append({ runId, seq, event: warning(String(seq)) });
    await backend.eventLog.end(runId, { kind: 'complete' });
    const reader = record(backend.eventLog.read(runId, 30));
    await reader.done;
    expect(reader.completed).toBe(true);
    expect(seqsOf(reader.events)).toEqual(Array.from({ length: 10 }, (_, i) => 31 + i));
  });
});
