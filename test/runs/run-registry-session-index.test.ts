import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

// Deleting a conversation forgets its finished runs: the registry finds them through its index
// by session id (not a walk over every run kept), so the index must follow every run added,
// forgotten, or evicted past its retention, and hold no entry for a session with no run left.
let f: DelegationFixture;
let engine: HarnessEngine | undefined;
const http = httpServerPerTest();
afterEach(async () => {
  vi.useRealTimers();
  await engine?.close();
  engine = undefined;
  await f.close();
});

const post = (url: string, body: unknown): Promise<Response> => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Starts a run of `sessionId` over HTTP and waits until it has ended. */
async function runOver(base: string, e: HarnessEngine, sessionId: string): Promise<string> {
  const res = await post(`${base}/runs`, { prompt: `hello ${sessionId}`, sessionId });
  expect(res.status).toBe(201);
  const { runId } = (await res.json()) as { runId: string };
  await expect.poll(() => e.runs.get(runId)?.state).toBe('done');
  return runId;
}

const ids = (e: HarnessEngine, sessionId: string): string[] => e.runs.list({ sessionId }).map((r) => r.runId);

describe('the runs of a session, indexed', () => {
  it('DELETE /sessions/:id forgets that conversation\'s runs and keeps the others\'', async () => {
    f = await startDelegationFixture({ main: () => ({ text: 'ok' }) });
    const e = (engine = f.engine());
    const base = await http.serve(runsHandler(e));
    const gone = [await runOver(base, e, 's1'), await runOver(base, e, 's1')];
    const kept = [await runOver(base, e, 's2'), await runOver(base, e, 's3')];
    expect(e.runs.sessionCount).toBe(3);
    expect((await fetch(`${base}/sessions/s1`, { method: 'DELETE' })).status).toBe(204);
    expect(ids(e, 's1')).toEqual([]);
    for (const runId of gone) expect((await fetch(`${base}/runs/${runId}`)).status).toBe(404);
    expect([...ids(e, 's2'), ...ids(e, 's3')]).toEqual(kept);
    expect(e.runs.sessionCount).toBe(2);
    // A new conversation of the deleted id is indexed afresh; deleting it again forgets only it.
    const again = await runOver(base, e, 's1');
    expect(ids(e, 's1')).toEqual([again]);
    expect((await fetch(`${base}/sessions/s1`, { method: 'DELETE' })).status).toBe(204);
    expect(ids(e, 's1')).toEqual([]);
    expect(e.runs.sessionCount).toBe(2);
  });

  it('runs evicted past their retention leave no entry in the index', async () => {
    f = await startDelegationFixture({ main: () => ({ text: 'ok' }) });
    // Only the monotonic clock expiry reads is faked: the server and the sockets run for real.
    vi.useFakeTimers({ toFake: ['performance'] });
    const e = (engine = f.engine({ runRetentionMs: 1000 }));
    const base = await http.serve(runsHandler(e));
    await runOver(base, e, 's1');
    await runOver(base, e, 's2');
    expect(e.runs.sessionCount).toBe(2);
    vi.advanceTimersByTime(1001);
    expect(e.runs.list()).toEqual([]);
    expect(e.runs.sessionCount).toBe(0);
    // A conversation whose runs expired is still deleted; a new run is indexed as before.
    expect((await fetch(`${base}/sessions/s1`, { method: 'DELETE' })).status).toBe(204);
    await runOver(base, e, 's2');
    expect(e.runs.sessionCount).toBe(1);
  });
});
