import { describe, expect, it } from 'vitest';
import type { SequencedEvent } from '../../src/runs/run-types.js';
import { closedAfterEach } from '../support/closed-after-each.js';
import { createGate } from '../support/deferred.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { oneTo, openEvents, serveRuns, type RunsServer } from '../http/http-kit.js';

const open = closedAfterEach<{ served: RunsServer; fake: FakeOpenAIServer }>(['served', 'fake']);

/**
 * Reconnects after `after` (an EventSource's `Last-Event-ID`) and reads `count` events, or to the
 * end when the run is over. A reconnect past the last event of a run that is over (`count` -1:
 * at its ending's id) is answered `204`, which stops an EventSource: no events, and no end.
 */
async function resume(url: string, after: number, count: number, over: boolean): Promise<{ events: SequencedEvent[]; ended: boolean }> {
  const stream = await openEvents(url, { 'last-event-id': String(after) });
  if (over && count < 0) {
    expect(stream.status).toBe(204);
    stream.disconnect();
    return { events: [], ended: false };
  }
  expect(stream.status).toBe(200);
  if (over) await stream.ended;
  else if (count > 0) await stream.waitFor((frame) => frame.id === String(after + count));
  stream.disconnect();
  return { events: stream.events(), ended: stream.frames.some((frame) => frame.event === 'end') };
}

describe('event log compaction: a client reconnecting with Last-Event-ID', () => {
  it('gets exactly the events after its last one, at every cut point, mid-run after a step was compacted and after the run', async () => {
    const secondStep = createGate();
    const secondAsked = createGate();
    let requests = 0;
    open.fake = await FakeOpenAIServer.start({
      handler: async () => {
        requests += 1;
        if (requests === 1) return { thinking: 'I should look at the folder first.', text: 'Looking at the folder now.', toolCalls: [{ name: 'list', arguments: {} }], chunkSize: 3 };
        secondAsked.open();
        await secondStep.promise;
        return { text: 'The folder holds what the list said, and nothing more.', chunkSize: 3 };
      },
    });
    open.served = await serveRuns({ model: openAIModelFor(open.fake) });
    const run = open.served.engine.start('What is in the folder?');
    // The reference: every event as the run emitted it, followed live from the start.
    const live: SequencedEvent[] = [];
    run.events$.subscribe({ next: (entry) => live.push(JSON.parse(JSON.stringify(entry)) as SequencedEvent), error: () => undefined });
    const url = `${open.served.url}/runs/${run.runId}/events`;

    // Mid-run: step 1 is complete (its ReasonEnd compacted its deltas), step 2 waits for the model.
    await secondAsked.promise;
    const firstEnd = live.findIndex((e) => e.event.type === 'ReasonEnd');
    expect(firstEnd).toBeGreaterThan(10); // thinking and text deltas before it
    expect(live.slice(0, firstEnd).filter((e) => e.event.type === 'ReasonDelta').length).toBeGreaterThan(15);
    const midRun = live.length;
    for (let after = 0; after <= midRun; after++) {
      const { events } = await resume(url, after, midRun - after, false);
      expect(events.map((e) => e.seq)).toEqual(oneTo(midRun).slice(after));
      expect(events).toEqual(live.slice(after, midRun));
    }

    // After the run: its log sealed (every stream compacted).
    secondStep.open();
    await run.result;
    expect(live.at(-1)?.event.type).toBe('RunEnd');
    const total = live.length;
    expect(total).toBeGreaterThan(midRun + 15);
    for (let after = 0; after <= total + 1; after++) {
      const { events, ended } = await resume(url, after, total - after, true);
      // at the last event the ending is still told (it may have been missed); at its id (total + 1): 204
      expect(ended).toBe(after <= total);
      expect(events).toEqual(live.slice(after));
    }
    const answer = live.flatMap((e) => (e.event.type === 'ReasonDelta' && e.event.step === 2 ? [e.event.text] : [])).join('');
    expect(answer).toBe('The folder holds what the list said, and nothing more.');
  }, 60_000);
});
