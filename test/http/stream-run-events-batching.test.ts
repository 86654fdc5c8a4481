/**
 * `streamRunEvents` (a run followed over `GET /runs/:id/events`) writes the events of one turn
 * of the event loop in one `res.write`, counted on the real `ServerResponse` of a real `http`
 * server. Batching must keep the order, each event's JSON, the backpressure (a reader that
 * stops reading holds one socket buffer, not the run) and the end (once, after every event).
 */
import { defer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { streamRunEvents, type AttachRun } from '../../src/http/stream-run-events.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import type { LogEnding, SequencedEvent } from '../../src/runs/run-types.js';
import { httpServerPerTest, type ResponseCounts } from '../support/http-server-per-test.js';
import { withFrozenFrameClock } from '../support/frozen-frame-clock.js';
import { connect } from '../adapters/sse-client.js';

const served = httpServerPerTest();

/** Serves `streamRunEvents(attach, 0, res)`, counting `res.write` and `res.end` calls. */
function serveCounted(attach: AttachRun): Promise<{ url: string; counts: ResponseCounts }> {
  return served.serveCounted((_req, res) => streamRunEvents(attach, 0, res, 0, () => false));
}

const RUN = 'run_"quoted"';

/** A run's `count` text deltas, the i-th carrying `text(i)`. */
function runEvents(count: number, text: (i: number) => string): SequencedEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    runId: RUN,
    seq: i + 1,
    event: { type: 'ReasonDelta', runId: RUN, agentName: 'main', step: 1, kind: 'text', text: text(i) } satisfies AgentEvent,
  }));
}

/** The engine's own event log, open for {@link RUN}; `attach` reads it as `engine.runs.attach` does. */
function runLog(): { log: MemoryEventLog; attach: AttachRun } {
  const log = new MemoryEventLog();
  log.open(RUN);
  return { log, attach: (after) => log.read(RUN, after) };
}

/** The data messages a client read, parsed. */
const dataOf = (messages: readonly { event?: string; data?: string }[]): unknown[] =>
  messages.filter((m) => m.event === undefined && m.data !== undefined).map((m) => JSON.parse(m.data!) as unknown);

describe('streamRunEvents: events ready in the same turn', () => {
  it('writes a replay of 10,000 events in order, each the SequencedEvent’s JSON, in far fewer writes', async () => {
    const events = runEvents(10_000, (i) => `delta ${i}`);
    const { log, attach } = runLog();
    for (const entry of events) log.append(entry);
    log.end(RUN, { kind: 'complete' });
    const { url, counts } = await serveCounted(attach);
    const client = await connect(url);
    await client.ended;
    expect(dataOf(client.messages)).toEqual(events);
    expect(client.messages.filter((m) => m.id !== undefined && m.event === undefined).map((m) => m.id)).toEqual(events.map((e) => String(e.seq)));
    expect(client.messages.at(-1)).toEqual({ event: 'end', data: '{}', id: String(events.length + 1) });
    expect(counts.writes).toBeLessThan(events.length / 20);
  });

  it('writes the live events of one turn in one write, and a lone event without waiting for more', async () => {
    const events = runEvents(51, (i) => `delta ${i}`);
    const { log, attach } = runLog();
    const { url, counts } = await serveCounted(attach);
    const client = await connect(url);
    const before = counts.writes;
    await withFrozenFrameClock(async () => {
      setImmediate(() => events.slice(0, 50).forEach((e) => log.append(e)));
      await client.waitFor((m) => m.id === '50');
      expect(counts.writes - before).toBe(1);
      log.append(events[50]!);
      await client.waitFor((m) => m.id === '51');
      expect(counts.writes - before).toBe(2);
    });
    log.end(RUN, { kind: 'complete' });
    await client.ended;
  });

  it('a reader that stops reading holds one socket buffer: it detaches, resumes on drain, and loses nothing', { timeout: 30_000 }, async () => {
    const events = runEvents(10_000, (i) => `${i} ${'y'.repeat(1024)}`); // 10 MiB, replayed at once
    const { log, attach } = runLog();
    for (const entry of events) log.append(entry);
    log.end(RUN, { kind: 'complete' });
    let attachments = 0;
    const { url, counts } = await serveCounted((after) => defer(() => ((attachments += 1), attach(after))));
    const client = await connect(url, { pauseMs: 300 });
    await client.ended;
    expect(dataOf(client.messages)).toEqual(events);
    expect(attachments).toBeGreaterThan(1);
    // one batch (a socket buffer, 16 KiB) and the high-water mark, not the 10 MiB replay
    expect(counts.maxBacklog).toBeLessThan(64 * 1024);
    expect(counts.ends).toBe(1);
  });

  it('ends once, after every event of the turn it ended in: end, cancelled and error alike', async () => {
    // about 17 KiB: one batch is written when it fills, the rest goes with the end
    const events = runEvents(100, (i) => `delta ${i}`);
    const endings: Array<[string, LogEnding]> = [
      ['end', { kind: 'complete' }],
      ['cancelled', { kind: 'cancelled', reason: 'the run was cancelled' }],
      ['error', { kind: 'failed', message: 'the model went away' }],
    ];
    for (const [event, ending] of endings) {
      const { log, attach } = runLog();
      const { url, counts } = await serveCounted(attach);
      const client = await connect(url);
      setImmediate(() => {
        for (const entry of events) log.append(entry);
        log.end(RUN, ending);
      });
      await client.ended;
      expect(dataOf(client.messages.slice(0, -1))).toEqual(events);
      expect(client.messages.at(-1)?.event).toBe(event);
      expect(counts.ends).toBe(1);
      await served.closeServer();
    }
  });
});
