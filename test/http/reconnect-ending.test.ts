/**
 * An EventSource whose connection dropped while its run went on, and which reconnects
 * (`Last-Event-ID`) once the run is over: it must be told how the run ended (`end`,
 * `cancelled` or `error`), even when no event came after the last one it saw. The ending
 * frame's `id:` (one past the run's last seq) is what it reconnects with next, and that
 * reconnect, having seen the ending, is answered `204`, which stops it.
 */
import http from 'node:http';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/index.js';
import { runsHandler, type RunsEngine } from '../../src/http/runs-handler.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import { RunRegistry } from '../../src/runs/run-registry.js';
import { listen, openEvents, type SseFrame } from './http-kit.js';

const RUN = 'run_away';
const runStart: AgentEvent = { type: 'RunStart', runId: RUN, agentName: 'main', sessionId: 's', prompt: 'p' };
const delta: AgentEvent = { type: 'ReasonDelta', runId: RUN, agentName: 'main', step: 1, kind: 'text', text: 'half' };
const runEnd: AgentEvent = {
  type: 'RunEnd',
  runId: RUN,
  agentName: 'main',
  text: 'half',
  abnormal: false,
  metrics: { promptTokens: 1, completionTokens: 1, totalTokens: 2, durationMs: 1, tasks: 0 },
  steps: 1,
};

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** The engine's own registry behind `runsHandler`, with one run whose events the test feeds. */
async function serveOneRun(): Promise<{ url: string; events: Subject<AgentEvent> }> {
  const runs = new RunRegistry({ log: new MemoryEventLog(), retentionMs: 60_000, maxRetained: 10 });
  const events = new Subject<AgentEvent>();
  runs.start(RUN, 's', 'main', events);
  const engine: RunsEngine = { runs, start: () => { throw new Error('the test starts its run itself'); } };
  const handler = runsHandler(engine);
  server = http.createServer((req, res) => void handler(req, res));
  return { url: `${await listen(server)}/runs/${RUN}/events`, events };
}

/** What an EventSource keeps between connections: the last `id:` of any frame, ending frames too. */
function lastEventId(frames: readonly SseFrame[], before: string): string {
  return frames.reduce((id, frame) => frame.id ?? id, before);
}

const endings: Array<[string, (events: Subject<AgentEvent>, url: string) => Promise<unknown>, SseFrame]> = [
  ['finished', async (events) => (events.next(delta), events.next(runEnd), events.complete()), { event: 'end', data: '{}', id: '5' }],
  ['failed', async (events) => (events.next(delta), events.error(new Error('the log of the run broke'))), { event: 'error', data: '{"name":"Error","message":"the log of the run broke"}', id: '4' }],
  ['cancelled', (_events, url) => fetch(url.replace(/\/events$/, ''), { method: 'DELETE' }), { event: 'cancelled', data: '{"reason":"the run was cancelled"}', id: '3' }],
];

describe('GET /runs/:id/events: an EventSource reconnecting after its run ended while it was away', () => {
  it.each(endings)('%s: the first reconnect gets what it missed and the ending, with its id; the next one 204', async (_name, end, ending) => {
    const { url, events } = await serveOneRun();
    events.next(runStart);
    events.next(delta);
    const first = await openEvents(url);
    await first.waitFor((frame) => frame.id === '1');
    // dropped after seq 1 (seq 2 may or may not have arrived: the EventSource resumes after what it saw)
    first.disconnect();
    const seen = lastEventId(first.frames, '');
    expect(['1', '2']).toContain(seen);
    await end(events, url);

    const back = await openEvents(url, { 'last-event-id': seen });
    await back.ended;
    expect(back.status).toBe(200);
    expect(back.frames.at(-1)).toEqual(ending);
    // what it missed, then the ending: every seq after `seen`, once
    const seqs = back.events().map((entry) => entry.seq);
    expect(seqs).toEqual(Array.from({ length: Number(ending.id) - 1 - Number(seen) }, (_, i) => Number(seen) + 1 + i));

    // the EventSource now holds the ending's id: told it already, it is stopped
    const again = await fetch(url, { headers: { 'last-event-id': lastEventId(back.frames, seen) } });
    expect(again.status).toBe(204);
    expect(await again.text()).toBe('');
    // asked with ?after= (fromRun), the ending is still told
    expect(await (await fetch(`${url}?after=${ending.id}`)).text()).toContain(`event: ${ending.event}\n`);
  });
});
