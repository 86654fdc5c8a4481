/**
 * `POST /sessions/:id/compact` stops its compaction when the client goes away: left running,
 * its summary request would hold the session (every run of it refused `409`) and a socket to
 * the model until the request's idle timeout, 10 minutes by default, for an answer nobody reads.
 */
import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { isSummaryRequest, pagedHistory, SUMMARY } from '../support/compaction-kit.js';
import { compactLeavable, compactServerPerTest, postCompact, sessionFree } from './compact-kit.js';

const serveCompact = compactServerPerTest();

describe('POST /sessions/:id/compact when the client goes away', () => {
  it('aborts the summary request and frees the session at once; the next compaction runs', async () => {
    let summaries = 0;
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory());
    // The first summary request never answers: only the client's leaving can end it.
    const { served, fake } = await serveCompact((r) => (isSummaryRequest(r) && summaries++ === 0 ? { hang: true } : { text: SUMMARY }), sessions);

    const compaction = compactLeavable(served.url, 's');
    await fake.waitForRequests(1);
    expect(await sessionFree(sessions, 's')).toBe(false); // the compaction holds it
    compaction.leave();

    expect((await fake.waitForClosed(0)).aborted).toBe(true);
    await expect.poll(() => sessionFree(sessions, 's')).toBe(true);
    expect(sessions.load('s')).toEqual(pagedHistory()); // nothing replaced by the stopped one

    const again = await postCompact(served.url, 's');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ type: 'Compaction', sessionId: 's', reason: 'manual', archived: true });
    expect(fake.requests).toHaveLength(2);
  });
});
