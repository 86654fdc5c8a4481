import { describe, expect, it } from 'vitest';
import type { SessionBusyError } from '../../src/agent/session-busy-error.js';
import { cancelRun, startRun } from '../../src/client/index.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { runsHandler, type RunsEngine } from '../../src/http/runs-handler.js';
import { RunSlots } from '../../src/http/run-slots.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { startNotingBusy, storeHoldingWrites } from '../support/ending-run-store.js';
import { delegationFixturePerTest } from '../support/fixture-per-test.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

/**
 * `POST /runs` in a session whose run was just cancelled (`cancelRun`, then `startRun` at
 * once: "Stop", then send again). The cancelled run gives the session back once its turn is
 * closed in the store; with a store that writes asynchronously (a file) that is after the
 * cancel was answered, and the next start was refused `409`. It now waits for it, briefly.
 */
const startFixture = delegationFixturePerTest();
const http = httpServerPerTest();

/** The real engine behind `runsHandler`, every call passed on; the busy refusals `engine.start` threw are noted. */
function watched(engine: HarnessEngine, busy: SessionBusyError[]): RunsEngine {
  return { runs: engine.runs, start: startNotingBusy(engine, busy) };
}

describe('POST /runs after a cancel in the same session', () => {
  it('starts the next run once the cancelled one has closed its turn in a FileSessionStore, not a 409', async () => {
    let n = 0;
    const fixture = await startFixture({ main: () => (n++ === 0 ? { hang: true } : { text: 'second answer' }) });
    const engine = fixture.engine({ sessions: new FileSessionStore(fixture.workspace.dir, { home: fixture.home }) });
    const api = `${await http.serve(runsHandler(engine, { basePath: '/api' }))}/api`;
    const first = await startRun(api, { prompt: 'hang', sessionId: 'ses-1' });
    await fixture.server.waitForRequests(1, 15_000);
    await cancelRun(api, first.runId);
    const second = await startRun(api, { prompt: 'again', sessionId: 'ses-1' });
    expect(second.sessionId).toBe('ses-1');
    expect(await waitForEnd(engine, second.runId)).toBe('done');
  }, 30_000);

  it('still refuses (409) at once, in one try, a session whose run is running', async () => {
    const fixture = await startFixture({ main: () => ({ hang: true }) });
    const engine = fixture.engine({ sessions: new FileSessionStore(fixture.workspace.dir, { home: fixture.home }) });
    const busy: SessionBusyError[] = [];
    const api = `${await http.serve(runsHandler(watched(engine, busy), { basePath: '/api' }))}/api`;
    const first = await startRun(api, { prompt: 'hang', sessionId: 'ses-2' });
    await fixture.server.waitForRequests(1, 15_000);
    await expect(startRun(api, { prompt: 'again', sessionId: 'ses-2' })).rejects.toThrow(/answered 409: session "ses-2" is busy/);
    expect(busy).toHaveLength(1);
    expect(busy[0]!.activeRunId).toBe(first.runId);
    await cancelRun(api, first.runId);
  }, 30_000);

  it('a client that leaves while its start waits starts nothing, and gives its slot back', async () => {
    const held = storeHoldingWrites(); // once armed, the cancelled run's closing write is held: its session stays held
    const fixture = await startFixture({ main: () => ({ hang: true }) });
    const engine = fixture.engine({ sessions: held.sessions });
    const busy: SessionBusyError[] = [];
    const slots = new RunSlots(4);
    const runs = runsHandler(watched(engine, busy), { basePath: '/api', maxRuns: slots });
    let closed = false; // the server saw the leaving client's connection close
    const api = `${await http.serve((req, res) => {
      if (req.headers['x-leaving'] !== undefined) res.once('close', () => (closed = true));
      runs(req, res);
    })}/api`;
    const first = await startRun(api, { prompt: 'hang', sessionId: 'ses-3' });
    await fixture.server.waitForRequests(1, 15_000);
    const gate = held.arm();
    await cancelRun(api, first.runId);
    const leaving = new AbortController();
    const headers = { 'content-type': 'application/json', 'x-leaving': '1' };
    const second = fetch(`${api}/runs`, { method: 'POST', headers, body: JSON.stringify({ prompt: 'again', sessionId: 'ses-3' }), signal: leaving.signal });
    await expect.poll(() => busy.length, { timeout: 20_000 }).toBeGreaterThan(1); // waiting: refused, and tried again
    expect(slots.taken).toBe(1); // the waiting request's
    leaving.abort();
    await second.catch(() => undefined);
    await expect.poll(() => closed, { timeout: 20_000 }).toBe(true);
    gate.open(); // the session is free now: a wait that went on would start the run
    // the wait ended (its slot is given back only then) and started nothing
    await expect.poll(() => slots.taken, { timeout: 20_000 }).toBe(0);
    expect(engine.runs.list().map((r) => r.runId)).toEqual([first.runId]);
  }, 30_000);
});

/** The state the run ends in. */
async function waitForEnd(engine: HarnessEngine, runId: string): Promise<string | undefined> {
  await expect.poll(() => engine.runs.get(runId)?.state, { timeout: 20_000 }).not.toBe('running');
  return engine.runs.get(runId)?.state;
}
