/**
 * `POST /sessions/:id/compact` stops its compaction when the client goes away: left running,
 * its summary request would hold the session (every run of it refused `409`) and a socket to
 * the model until the request's idle timeout, 10 minutes by default, for an answer nobody reads.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { isSummaryRequest, pagedHistory, SUMMARY } from '../support/compaction-kit.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { postJson, serveRuns, type RunsServer } from './http-kit.js';

let served: RunsServer | undefined;
let fake: FakeOpenAIServer | undefined;
afterEach(async () => {
  await served?.close();
  await fake?.close();
  served = fake = undefined;
});

/** Whether nobody holds session `id` now (the probe's own claim is given back at once). */
function free(sessions: MemorySessionStore, id: string): boolean {
  const claim = sessions.claim(id, 'probe');
  if (claim.granted) claim.release();
  return claim.granted;
}

describe('POST /sessions/:id/compact when the client goes away', () => {
  it('aborts the summary request and frees the session at once; the next compaction runs', async () => {
    let summaries = 0;
    // The first summary request never answers: only the client's leaving can end it.
    fake = await FakeOpenAIServer.start({ handler: (r) => (isSummaryRequest(r) && summaries++ === 0 ? { hang: true } : { text: SUMMARY }) });
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory());
    served = await serveRuns({ model: openAIModelFor(fake), sessions });

    const request = http.request(`${served.url}/sessions/s/compact`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    request.on('error', () => undefined); // destroyed below, on purpose
    request.end('{}');
    await fake.waitForRequests(1);
    expect(free(sessions, 's')).toBe(false); // the compaction holds it
    request.destroy();

    expect((await fake.waitForClosed(0)).aborted).toBe(true);
    await expect.poll(() => free(sessions, 's')).toBe(true);
    expect(sessions.load('s')).toEqual(pagedHistory()); // nothing replaced by the stopped one

    const again = await postJson(`${served.url}/sessions/s/compact`, {});
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ type: 'Compaction', sessionId: 's', reason: 'manual', archived: true });
    expect(fake.requests).toHaveLength(2);
  });
});
