import { lastValueFrom, tap, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fromRun, startRun } from '../../src/client/index.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { oneTo, serveRuns, type RunsServer } from '../http/http-kit.js';
import { cuttingFetch, seeded } from './cutting-fetch.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('fromRun: 1,000 random disconnects and resumes against runsHandler', () => {
  it('the consumer sees every event exactly once, in order; the model runs once', { timeout: 60_000 }, async () => {
    const rand = seeded(0xc11e47);
    // about 2,500 events, one every 2 ms: most cuts land while the run is live
    const model = new ScriptedModel(() => ({ text: 'abcdefghij'.repeat(250), chunkSize: 1, chunkDelayMs: 2 }));
    served = await serveRuns({ model });
    let cutsLeft = 1000;
    // each connection breaks after 0 to 600 bytes, now and then up to 4,000 (the RunEnd, with the
    // whole text, is 2.7 KB), anywhere: between messages or inside one
    const net = cuttingFetch(() => (cutsLeft-- > 0 ? (rand() < 0.95 ? Math.floor(rand() * 600) : Math.floor(rand() * 4000)) : undefined));
    const { runId } = await startRun(served.url, { prompt: 'go' });
    let liveAtCut = 0;
    let lastCuts = 0;
    const events = await lastValueFrom(
      fromRun(served.url, runId, { fetch: net.fetch, retryDelayMs: 0, maxRetries: 500 }).pipe(
        tap(() => {
          if (net.cuts() !== lastCuts && served!.engine.runs.get(runId)?.state === 'running') liveAtCut += 1;
          lastCuts = net.cuts();
        }),
        toArray(),
      ),
    );
    expect(net.cuts()).toBe(1000);
    expect(net.connections()).toBeGreaterThan(1000);
    expect(liveAtCut).toBeGreaterThan(300);
    expect(events.map((e) => e.seq)).toEqual(oneTo(events.length));
    expect(events.at(-1)!.event).toMatchObject({ type: 'RunEnd', abnormal: false });
    const text = events.flatMap((e) => (e.event.type === 'ReasonDelta' ? [e.event.text] : [])).join('');
    expect(text).toBe('abcdefghij'.repeat(250));
    expect(model.requests).toHaveLength(1);
    expect(served.engine.runs.list()).toHaveLength(1);
    await expect.poll(() => served!.openStreams()).toBe(0);
  });
});
