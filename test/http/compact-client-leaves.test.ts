/**
 * `POST /sessions/:id/compact` with its client leaving at each point: before the body is read
 * (while the request is authorised), while the summary streams, and after the summary but
 * before the answer is written (while the store replaces the session). After each the
 * session is free at once (once the replace under way has ended), nothing is half written
 * (the session is the old transcript or the whole compacted one), and nothing rejects
 * unhandled.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/model/chat-message.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { isSummaryRequest, pagedHistory, SUMMARY } from '../support/compaction-kit.js';
import { createGate, type Gate } from '../support/deferred.js';
import { wrappedMemoryStore } from '../support/wrapped-store.js';
import { compactLeavable, compactServerPerTest, postCompact, sessionFree } from './compact-kit.js';

const rejections: unknown[] = [];
const onRejection = (reason: unknown): void => void rejections.push(reason);
process.on('unhandledRejection', onRejection);
afterAll(() => void process.off('unhandledRejection', onRejection));
// Registered before the servers' own: after hooks run as a stack, so this one runs once they are closed.
afterEach(() => void (rejections.length = 0));
const serveCompact = compactServerPerTest();

/** A store whose `replace` waits for `gate` once `replacing` is open; its session `s` holds six paged turns. */
function gatedStore(replacing: Gate, gate: Gate): Required<SessionStore> {
  const store = wrappedMemoryStore((memory) => ({
    claim: (id, owner) => memory.claim(id, owner),
    loadArchive: (id) => memory.loadArchive(id),
    replace: async (id: string, messages: readonly ChatMessage[]) => {
      replacing.open();
      await gate.promise;
      memory.replace(id, messages);
    },
  }));
  store.append('s', pagedHistory());
  return store;
}

/** The session is the whole compacted one: its summary first, the last turn after it, every message archived. */
async function expectWholeCompacted(sessions: SessionStore): Promise<void> {
  const stored = await sessions.load('s');
  expect(stored[0]).toMatchObject({ role: 'user', content: expect.stringContaining(SUMMARY) });
  expect(stored.at(-1)).toEqual(pagedHistory().at(-1));
  expect(await sessions.loadArchive!('s')).toEqual(pagedHistory());
}

describe('POST /sessions/:id/compact when its client leaves', () => {
  it('before the body is read: it does nothing (no claim, no summary); the next compaction is the only one', async () => {
    const arrived = createGate();
    const authorised = createGate();
    const replacing = createGate();
    const gate = createGate();
    gate.open();
    const sessions = gatedStore(replacing, gate);
    const authorize = async (): Promise<boolean> => {
      arrived.open();
      await authorised.promise;
      return true;
    };
    const { served, fake } = await serveCompact(() => ({ text: SUMMARY }), sessions, { authorize });
    const compaction = compactLeavable(served.url, 's', { bodyWithheld: true });
    await arrived.promise;
    compaction.leave();
    await expect.poll(() => served.sockets.size).toBe(0);
    authorised.open();

    expect(await sessionFree(sessions, 's')).toBe(true);
    // Had the left request compacted, this one would find the session busy, or ask a second summary.
    const again = await postCompact(served.url, 's');
    expect(again.status).toBe(200);
    expect(fake.requests).toHaveLength(1);
    await expectWholeCompacted(sessions);
    expect(rejections).toEqual([]);
  });

  it('while the summary streams: the summary request is aborted, the session is free and unchanged', async () => {
    const sessions = gatedStore(createGate(), createGate());
    // The summary starts streaming, then goes silent: only the client's leaving can end it.
    const { served, fake } = await serveCompact((r) => (isSummaryRequest(r) ? { text: SUMMARY, chunkSize: 8, stallAfterChunks: 2 } : { text: 'no' }), sessions);
    const compaction = compactLeavable(served.url, 's', { bodyWithheld: true });
    await fake.waitForRequests(1);
    await expect.poll(() => fake.requests[0]!.status).toBe(200);
    expect(await sessionFree(sessions, 's')).toBe(false); // the compaction holds it
    compaction.leave();

    expect((await fake.waitForClosed(0)).aborted).toBe(true);
    await expect.poll(() => sessionFree(sessions, 's')).toBe(true);
    expect(await sessions.load('s')).toEqual(pagedHistory());
    expect(rejections).toEqual([]);
  });

  it('after the summary, before the answer is written: the replace under way ends whole, then the session is free', async () => {
    const replacing = createGate();
    const gate = createGate();
    const sessions = gatedStore(replacing, gate);
    const { served } = await serveCompact(() => ({ text: SUMMARY }), sessions);
    const compaction = compactLeavable(served.url, 's', { bodyWithheld: true });
    let answered = false;
    void compaction.status.then(() => (answered = true));
    await replacing.promise;
    compaction.leave();
    await expect.poll(() => served.sockets.size).toBe(0);
    gate.open();

    await expect.poll(() => sessionFree(sessions, 's')).toBe(true);
    await expectWholeCompacted(sessions);
    expect(answered).toBe(false);
    expect(rejections).toEqual([]);
    // The session takes the next compaction as usual.
    expect((await postCompact(served.url, 's')).status).toBe(200);
  });
});
