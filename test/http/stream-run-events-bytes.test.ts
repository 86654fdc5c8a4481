/**
 * `GET /runs/:id/events` writes each event's `data` as exactly the bytes `JSON.stringify` makes
 * of the SequencedEvent the log delivers, though a delta's JSON is built from its stream's
 * cached JSON around its text (`src/runs/event-json.ts`): interleaved children, a grandchild,
 * a delta whose keys come in another order, escapes, a new step; read live from the start and
 * by readers attaching mid-run at every seq (a replay rebuilt from the log, then live events).
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { streamRunEvents } from '../../src/http/stream-run-events.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { connect, type SseClient } from '../adapters/sse-client.js';

const served = httpServerPerTest();
const RUN = 'run_main';

const wrap = (child: string, event: AgentEvent, depth = 1): AgentEvent => {
  let out = event;
  for (let i = 0; i < depth; i++) {
    out = { type: 'TaskWrap', runId: i === depth - 1 ? RUN : `${child}-parent`, agentName: 'main', parentRunId: RUN, taskId: `t_${child}`, taskIndex: 1, taskAgentName: 'general', taskDescription: `task "${child}"`, multitask: true, event: out };
  }
  return out;
};
const delta = (runId: string, text: string, step = 1): AgentEvent => ({ type: 'ReasonDelta', runId, agentName: 'general', step, kind: 'text', text });

/** A run whose deltas test every way the cached JSON could go wrong. */
function runEvents(): SequencedEvent[] {
  const events: AgentEvent[] = [{ type: 'RunStart', runId: RUN, agentName: 'main', sessionId: 's', prompt: 'go' }];
  const texts = ['Hel', 'lo "quoted"', '\n\t\\', 'é🙂', '\ud800 lone', '', 'end'];
  for (const text of texts) {
    events.push(wrap('c1', delta('c1', text)), wrap('c2', delta('c2', `${text}!`)), wrap('g1', delta('g1', text), 2), delta(RUN, text));
  }
  // the same fields in another order: a JSON of its own
  events.push(wrap('c1', { text: 'reordered', kind: 'text', step: 1, agentName: 'general', runId: 'c1', type: 'ReasonDelta' }));
  events.push(wrap('c1', delta('c1', 'after')));
  events.push(wrap('c1', { type: 'ReasonEnd', runId: 'c1', agentName: 'general', step: 1, text: 'x', toolCalls: [], durationMs: 1 }));
  events.push(wrap('c1', delta('c1', 'next step', 2)), wrap('c2', delta('c2', 'still step 1')), wrap('c1', { ...delta('c1', 'thinking', 2), kind: 'thinking' } as AgentEvent));
  return events.map((event, i) => ({ runId: RUN, seq: i + 1, event }));
}

/** The raw `data` of every event message a client read, by seq. */
function dataById(client: SseClient): Map<number, string> {
  const out = new Map<number, string>();
  for (const m of client.messages) if (m.id !== undefined && m.event === undefined && m.data !== undefined) out.set(Number(m.id), m.data);
  return out;
}

/** What `log.read(RUN, after)` delivers right now (a replay), serialised. */
function replayed(log: MemoryEventLog, after: number): string[] {
  const out: string[] = [];
  log.read(RUN, after).subscribe((entry) => out.push(JSON.stringify(entry))).unsubscribe();
  return out;
}

describe('GET /runs/:id/events: each event exactly JSON.stringify of its SequencedEvent', () => {
  it('for a reader following the run live from its start', async () => {
    const events = runEvents();
    const log = new MemoryEventLog();
    log.open(RUN);
    const { url } = await served.serveCounted((_req, res) => streamRunEvents((after) => log.read(RUN, after), 0, res, 0, () => false));
    const client = await connect(url);
    // one event a turn, as a model streams: each goes through the reader alone
    for (const entry of events) {
      log.append(entry);
      await new Promise((done) => setImmediate(done));
    }
    log.end(RUN, { kind: 'complete' });
    await client.ended;
    expect([...dataById(client).values()]).toEqual(events.map((e) => JSON.stringify(e)));
  });

  it('for readers attaching mid-run at every seq: the replay as the log rebuilds it, then the live events', async () => {
    const events = runEvents();
    const half = Math.floor(events.length / 2);
    for (let after = 0; after <= half; after++) {
      const log = new MemoryEventLog();
      log.open(RUN);
      events.slice(0, half).forEach((e) => log.append(e));
      const expected = [...replayed(log, after), ...events.slice(half).map((e) => JSON.stringify(e))];
      const { url } = await served.serveCounted((_req, res) => streamRunEvents((from) => log.read(RUN, from), after, res, 0, () => false));
      const client = await connect(url); // its headers come once the reader has attached (and replayed)
      for (const entry of events.slice(half)) log.append(entry);
      log.end(RUN, { kind: 'complete' });
      await client.ended;
      expect([...dataById(client).values()]).toEqual(expected);
      await served.closeServer();
    }
  });
});
