/**
 * Forged entries in a run's log, at the seq the writer comes to next: a reader takes the log
 * in its writer's order (nothing after the RunEnd, one RunStart, no jump far ahead), whether
 * it follows the log live or replays it once ended.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEQ_GAP } from '../../src/backend/log-order.js';
import { redisBackend, type RedisBackend } from '../../src/backend/redis-backend.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { EMPTY_METRICS } from '../../src/events/run-metrics.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { record, type EventRecording } from '../support/collect-events.js';
import { HAS_REDIS, startRedis, type RedisServer } from './redis-server.js';
import { waitFor } from './scale-kit.js';

const warning = (message: string): AgentEvent => ({ type: 'Warning', runId: 'r', agentName: 'main', code: 'TEST', message });
const start = (runId: string): AgentEvent => ({ type: 'RunStart', runId, agentName: 'main', sessionId: 's', prompt: 'go' });
const end = (text: string): AgentEvent => ({ type: 'RunEnd', runId: 'r', agentName: 'main', text, abnormal: false, metrics: EMPTY_METRICS, steps: 1 });
/** What a reader got: each event's seq and what tells it apart. */
const got = (events: readonly SequencedEvent[]): string[] =>
  events.map(({ seq, event }) => `${seq} ${event.type === 'Warning' ? event.message : event.type === 'RunEnd' ? `RunEnd ${event.text}` : event.type === 'RunStart' ? `RunStart ${event.runId}` : event.type}`);

describe.skipIf(!HAS_REDIS)('a run log with forged entries is read in its writer order', () => {
  let redis: RedisServer;
  let backend: RedisBackend;
  let n = 0;
  beforeAll(async () => {
    redis = await startRedis();
    backend = await redisBackend({ url: redis.url, prefix: 'order' });
  });
  afterAll(async () => {
    await backend?.close();
    await redis?.stop();
  });

  /** A reader and the problems it was told of. */
  function reader(runId: string): { rec: EventRecording<SequencedEvent>; bad: string[] } {
    const bad: string[] = [];
    return { rec: record(backend.eventLog.read(runId, 0, (problem) => bad.push(problem))), bad };
  }

  /**
   * Writes seq 1 (a follower reads it), then `write` (the real writer and the forger, each
   * `[seq, event, forged]` in that order), then the end; returns the follower and a replay.
   */
  async function scene(first: AgentEvent, write: readonly [number, AgentEvent, boolean][]) {
    const runId = `run-${++n}`;
    const key = backend.parts.keys.log(runId);
    await backend.eventLog.append({ runId, seq: 1, event: first });
    const live = reader(runId);
    await waitFor(() => live.rec.events.length === 1); // following: the rest comes through the follower's XREAD
    for (const [seq, event, forged] of write) {
      if (forged) await backend.parts.redis.xadd(key, '*', 's', String(seq), 'e', JSON.stringify(event));
      else await backend.eventLog.append({ runId, seq, event });
    }
    await backend.eventLog.end(runId, { kind: 'complete' });
    await live.rec.done;
    const replay = reader(runId);
    await replay.rec.done;
    for (const r of [live, replay]) expect(r.rec.completed).toBe(true);
    return { live, replay };
  }

  it('a forged RunEnd at the next seq is the last event delivered: the real one after it is skipped as a bad entry', async () => {
    const { live, replay } = await scene(warning('one'), [
      [2, end('FORGED'), true],
      [2, warning('two'), false], // the writer's next event: a repeated seq now
      [3, end('REAL'), false],
    ]);
    for (const r of [live, replay]) {
      expect(got(r.rec.events)).toEqual(['1 one', '2 RunEnd FORGED']);
      expect(r.bad).toHaveLength(2);
      expect(r.bad[1]).toContain("its event (seq 3, RunEnd) comes after the run's RunEnd (seq 2)");
    }
  });

  it('an event forged with a huge seq is skipped, not the new high-water mark: every real event after it is delivered', async () => {
    const { live, replay } = await scene(warning('one'), [
      [1_000_000_000_000_000, warning('forged'), true],
      [2, warning('two'), false],
      [3, end('REAL'), false],
    ]);
    for (const r of [live, replay]) {
      expect(got(r.rec.events)).toEqual(['1 one', '2 two', '3 RunEnd REAL']);
      expect(r.bad).toEqual([expect.stringContaining(`its seq 1000000000000000 jumps more than ${MAX_SEQ_GAP} past the one before (seq 1)`)]);
    }
  });

  it('a gap the writer leaves (appends lost to a Redis failure) up to the bound is read whole; one event past it is not', async () => {
    const { live, replay } = await scene(warning('one'), [
      [3, warning('three'), false],
      [3 + MAX_SEQ_GAP, warning('far'), false],
      [4 + 2 * MAX_SEQ_GAP, warning('too far'), true],
      [4 + MAX_SEQ_GAP, end('REAL'), false],
    ]);
    for (const r of [live, replay]) {
      expect(got(r.rec.events)).toEqual(['1 one', '3 three', `${3 + MAX_SEQ_GAP} far`, `${4 + MAX_SEQ_GAP} RunEnd REAL`]);
      expect(r.bad).toHaveLength(1);
    }
  });

  it("only the first RunStart is the run's: a second one, naming another run, is skipped as a bad entry", async () => {
    const { live, replay } = await scene(start('run_real'), [
      [2, start('run_someone_else'), true],
      [2, warning('two'), false],
      [3, warning('three'), false],
    ]);
    for (const r of [live, replay]) {
      // Skipped, it takes no seq: the writer's own seq 2 is the next.
      expect(got(r.rec.events)).toEqual(['1 RunStart run_real', '2 two', '3 three']);
      expect(r.bad).toEqual([expect.stringContaining("it is a second RunStart (seq 2; the run's came at seq 1)")]);
    }
  });

  it('a reader from a position past the RunEnd still skips what comes after it', async () => {
    const runId = `run-${++n}`;
    const key = backend.parts.keys.log(runId);
    await backend.eventLog.append({ runId, seq: 1, event: end('REAL') });
    await backend.parts.redis.xadd(key, '*', 's', '2', 'e', JSON.stringify(end('FORGED')));
    await backend.eventLog.end(runId, { kind: 'complete' });
    const bad: string[] = [];
    const late = record(backend.eventLog.read(runId, 1, (problem) => bad.push(problem)));
    await late.done;
    expect(late.events).toEqual([]);
    expect(bad).toEqual([expect.stringContaining("comes after the run's RunEnd (seq 1)")]);
  });
});
