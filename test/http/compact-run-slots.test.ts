/**
 * `POST /sessions/:id/compact` takes a slot of `maxRuns`: its summary is a model request. Without
 * one, a token holder could start a compaction per session at once, and model requests without
 * bound, past the cap that bounds runs (review 56: 20 compactions and a run with `maxRuns: 1`).
 */
import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { isSummaryRequest, pagedHistory, SUMMARY } from '../support/compaction-kit.js';
import type { FakeReply } from '../support/fake-openai/types.js';
import { compactLeavable, compactServerPerTest, postCompact, type CompactServer } from './compact-kit.js';
import { postJson } from './http-kit.js';

const serveCompact = compactServerPerTest();

/** A server with `count` sessions to compact, `maxRuns: 1`, on a fake model answering summaries as `summary` says. */
async function serve(count: number, summary: (index: number) => FakeReply, sessions = new MemorySessionStore()): Promise<CompactServer> {
  let summaries = 0;
  for (let i = 0; i < count; i++) sessions.append(`s${i}`, pagedHistory());
  return serveCompact((r) => (isSummaryRequest(r) ? summary(summaries++) : { text: 'ran' }), sessions, { maxRuns: 1 });
}

describe('POST /sessions/:id/compact under maxRuns', () => {
  it('20 compactions and a run at once with maxRuns 1: one model request; the rest refused 429 as a run is', async () => {
    const { served: { url }, fake } = await serve(20, () => ({ hang: true }));
    const answered: number[] = [];
    const compactions = Array.from({ length: 20 }, (_, i) => compactLeavable(url, `s${i}`));
    for (const c of compactions) void c.status.then((status) => answered.push(status));
    const run = postJson(`${url}/runs`, { prompt: 'hi' }).then((r) => (answered.push(r.status), r));
    // all but the one holding the slot are answered, without reaching the model
    await expect.poll(() => answered.length, { timeout: 10_000 }).toBe(20);
    await fake.waitForRequests(1);
    expect(answered.every((status) => status === 429)).toBe(true);
    expect(fake.requests).toHaveLength(1);
    for (const c of compactions) c.leave();
    await fake.waitForClosed(0);
    await run.catch(() => undefined);
  });

  it('refuses a compaction while a run holds the slot, with the body and headers of a refused run', async () => {
    const { served: { url }, fake } = await serve(1, () => ({ text: SUMMARY }));
    fake.enqueue({ hang: true }); // the run's request: it holds the slot
    const started = await postJson(`${url}/runs`, { prompt: 'hi' });
    expect(started.status).toBe(201);
    const refusedRun = await postJson(`${url}/runs`, { prompt: 'again' });
    const refused = await postCompact(url, 's0');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(refusedRun.body);
    expect(refused.body).toEqual({ error: expect.stringContaining('maxRuns') });
    for (const name of ['retry-after', 'connection']) expect(refused.headers.get(name)).toBe(refusedRun.headers.get(name));
    expect(refused.headers.get('retry-after')).toBe('5');
  });

  it('gives the slot back when the compaction settles: client gone, failed, done', async () => {
    const sessions = new MemorySessionStore();
    const { served: { url }, fake } = await serve(4, (i) => (i === 0 ? { hang: true } : { text: SUMMARY }), sessions);
    const first = compactLeavable(url, 's0');
    await fake.waitForRequests(1);
    expect(await compactStatus(url, 's1')).toBe(429);
    first.leave(); // client gone: its compaction is stopped, and its slot comes back once it has settled
    await expect.poll(() => compactStatus(url, 's1')).not.toBe(429);
    expect(fake.requests).toHaveLength(2);
    const claim = sessions.claim('s2', 'another run');
    expect(await compactStatus(url, 's2')).toBe(409); // failed: the session is in use
    expect(claim.granted).toBe(true);
    if (claim.granted) claim.release();
    expect(await compactStatus(url, 's3')).toBe(200); // the failed one gave its slot back
    expect((await postJson(`${url}/runs`, { prompt: 'hi' })).status).toBe(201); // and so did the one done
  });
});

async function compactStatus(url: string, id: string): Promise<number> {
  return (await postCompact(url, id)).status;
}
