/**
 * An `EventSource` reconnecting to a run that is over, after its ending (the page's code did
 * not close it on `end`; the ending's `id:` is one past the last seq), is answered `204 No
 * Content`: what stops an EventSource (the SSE spec). Without it, it is told the same ending
 * and comes back, every few seconds, for ever. One reconnecting from the last event missed the
 * ending and is told it; a first request (`?after=N`, what `fromRun` sends) always is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fromRun } from '../../src/client/from-run.js';
import { chromiumPerFile, HAS_CHROMIUM } from '../support/chromium-per-file.js';
import { closedAfterEach } from '../support/closed-after-each.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { openEvents, postJson, serveRuns, type RunsServer } from './http-kit.js';

const open = closedAfterEach<{ served: RunsServer; fake: FakeOpenAIServer }>(['served', 'fake']);
const browser = chromiumPerFile();
let page: Page | undefined;
afterEach(async () => {
  await page?.context().close();
  page = undefined;
});

/** Starts a run; resolves its id once it is over. */
async function finishedRun(): Promise<string> {
  const { runId } = (await postJson(`${open.served!.url}/runs`, { prompt: 'hi' })).body as { runId: string };
  await expect.poll(() => open.served!.engine.runs.get(runId)?.state).toBe('done');
  return runId;
}

/** The events URL of a run, and its last seq read from a whole replay. */
async function lastSeq(runId: string): Promise<number> {
  const text = await (await fetch(`${open.served!.url}/runs/${runId}/events`)).text();
  const last = Math.max(...[...text.matchAll(/^id: (\d+)\ndata: /gm)].map((m) => Number(m[1])));
  expect(text.endsWith(`event: end\ndata: {}\nid: ${last + 1}\n\n`)).toBe(true);
  return last;
}

describe('GET /runs/:id/events: reconnecting to a run that is over', () => {
  it('answers 204 to Last-Event-ID at the ending; the ending to the last event, to ?after=N and the stream to an earlier position', async () => {
    open.fake = await FakeOpenAIServer.start({ handler: () => ({ text: 'done' }) });
    open.served = await serveRuns({ model: openAIModelFor(open.fake) });
    const runId = await finishedRun();
    const events = `${open.served.url}/runs/${runId}/events`;
    const last = await lastSeq(runId);

    const reconnect = await fetch(events, { headers: { 'last-event-id': String(last + 1) } });
    expect(reconnect.status).toBe(204);
    expect(await reconnect.text()).toBe('');
    // also past it (a client that saw more of another run under a reused id, say)
    expect((await fetch(events, { headers: { 'last-event-id': String(last + 5) } })).status).toBe(204);
    // at the last event: the ending was missed (dropped just before it), so it is told
    const missed = await fetch(events, { headers: { 'last-event-id': String(last) } });
    expect(missed.status).toBe(200);
    expect(await missed.text()).toBe(`event: end\ndata: {}\nid: ${last + 1}\n\n`);

    // fromRun's own reconnect: the query, not the header; it learns the ending from the frame
    const queried = await fetch(`${events}?after=${last}`);
    expect(queried.status).toBe(200);
    expect(await queried.text()).toBe(`event: end\ndata: {}\nid: ${last + 1}\n\n`);
    await expect(lastValueFrom(fromRun(open.served.url, runId, { after: last }).pipe(toArray()))).resolves.toEqual([]);

    // something left past the position: the stream, as before
    const earlier = await fetch(events, { headers: { 'last-event-id': String(last - 1) } });
    expect(earlier.status).toBe(200);
    expect((await earlier.text()).endsWith(`event: end\ndata: {}\nid: ${last + 1}\n\n`)).toBe(true);
  });

  it('streams to Last-Event-ID at the last event of a running run, and answers 204 once it was cancelled', async () => {
    open.fake = await FakeOpenAIServer.start({ handler: () => ({ hang: true }) });
    open.served = await serveRuns({ model: openAIModelFor(open.fake) });
    const { runId } = (await postJson(`${open.served.url}/runs`, { prompt: 'hi' })).body as { runId: string };
    const events = `${open.served.url}/runs/${runId}/events`;
    const first = await openEvents(events);
    const seen = await first.waitFor((f) => f.id !== undefined);
    first.disconnect();

    // running: the reconnect waits for what comes (here: its cancellation)
    const live = await openEvents(events, { 'last-event-id': seen.id! });
    expect(live.status).toBe(200);
    expect((await fetch(`${open.served.url}/runs/${runId}`, { method: 'DELETE' })).status).toBe(202);
    await live.waitFor((f) => f.event === 'cancelled');
    await live.ended;
    // what an EventSource holds now: the cancelled frame's id, one past the last event's seq
    const told = live.frames.findLast((f) => f.id !== undefined)!;
    expect(told.event).toBe('cancelled');
    const last = Number(told.id) - 1;
    expect(Math.max(...live.events().map((e) => e.seq), Number(seen.id))).toBe(last);

    // over, by cancel: the ending was told; a reconnect with its id is stopped
    expect((await fetch(events, { headers: { 'last-event-id': told.id! } })).status).toBe(204);
    expect((await fetch(`${events}?after=${last}`)).status).toBe(200);
    await expect(lastValueFrom(fromRun(open.served.url, runId, { after: last }), { defaultValue: undefined })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it.skipIf(!HAS_CHROMIUM)('stops a browser EventSource that the page never closes', { timeout: 40_000 }, async () => {
    open.fake = await FakeOpenAIServer.start({ handler: () => ({ text: 'done' }) });
    const asked: Array<string | undefined> = [];
    const pageRoute = (req: IncomingMessage, res: ServerResponse): boolean => {
      if (req.url?.includes('/events')) asked.push(req.headers['last-event-id'] as string | undefined);
      if (req.url !== '/page') return false;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><meta charset="utf-8"><title>run</title>');
      return true;
    };
    open.served = await serveRuns({ model: openAIModelFor(open.fake) }, {}, () => [pageRoute]);
    const runId = await finishedRun();
    const last = await lastSeq(runId);
    asked.length = 0;

    page = await (await browser()).newPage();
    await page.goto(`${open.served.url}/page`);
    // the page follows the run and closes on nothing, not even `end`
    await page.evaluate((id) => {
      const source = new EventSource(`/runs/${id}/events`);
      const seen: number[] = [];
      source.onmessage = (message) => seen.push((JSON.parse(message.data as string) as { seq: number }).seq);
      Object.assign(globalThis, { source, seen });
    }, runId);

    await expect.poll(() => page!.evaluate('source.readyState'), { timeout: 20_000, message: 'the EventSource is closed' }).toBe(2);
    expect(asked).toEqual([undefined, String(last + 1)]); // the ending's id
    expect(await page.evaluate('seen.length')).toBe(last);
  });
});
