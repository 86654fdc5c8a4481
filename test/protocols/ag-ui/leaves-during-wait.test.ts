import { describe, expect, it } from 'vitest';
import type { SessionBusyError } from '../../../src/agent/session-busy-error.js';
import { RunSlots } from '../../../src/http/run-slots.js';
import { agUiHandler, type AgUiEngine } from '../../../src/protocols/ag-ui/ag-ui-handler.js';
import { startNotingBusy, storeHoldingWrites } from '../../support/ending-run-store.js';
import { delegationFixturePerTest } from '../../support/fixture-per-test.js';
import { httpServerPerTest } from '../../support/http-server-per-test.js';
import { user } from './ag-ui-requests.js';

/**
 * A thread's next request waits, briefly, for its cancelled run to close its turn in the
 * store. A client that leaves meanwhile ends that wait when its connection closes: nothing
 * more is tried, no run starts once the session is free, and the request's slot is given back.
 */
const startFixture = delegationFixturePerTest();
const http = httpServerPerTest();

describe('agUiHandler: a client that leaves while its turn waits for the thread', () => {
  it('starts nothing, and gives its slot back', async () => {
    const held = storeHoldingWrites();
    const fixture = await startFixture({ main: () => ({ hang: true }) });
    const engine = fixture.engine({ sessions: held.sessions });
    const busy: SessionBusyError[] = [];
    const watched: AgUiEngine = { runs: engine.runs, checkRunTools: (tools) => engine.checkRunTools(tools), start: startNotingBusy(engine, busy) };
    const slots = new RunSlots(4);
    const handler = agUiHandler(watched, { path: '/ag-ui', maxRuns: slots });
    let closed = false; // the server saw the leaving client's connection close
    const url = `${await http.serve((req, res) => {
      if (req.headers['x-leaving'] !== undefined) res.once('close', () => (closed = true));
      handler(req, res);
    })}/ag-ui`;
    const post = (runId: string, messages: unknown[], signal: AbortSignal, extra: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...extra }, body: JSON.stringify({ threadId: 't-1', runId, messages }), signal });

    const holding = new AbortController();
    const holder = await post('r1', [user('hold')], holding.signal);
    await fixture.server.waitForRequests(1, 15_000);
    const gate = held.arm();
    holding.abort(); // abortRun(): the run is cancelled, its closing write held
    await holder.text().catch(() => undefined);
    await expect.poll(() => engine.runs.list()[0]?.state, { timeout: 20_000 }).toBe('cancelled');

    const leaving = new AbortController();
    const next = post('r2', [user('hold'), user('again')], leaving.signal, { 'x-leaving': '1' }).catch(() => undefined);
    await expect.poll(() => busy.length, { timeout: 20_000 }).toBeGreaterThan(1); // waiting: refused, and tried again
    leaving.abort();
    await next;
    await expect.poll(() => closed, { timeout: 20_000 }).toBe(true);
    gate.open(); // the thread is free now: a wait that went on would start the run
    await expect.poll(() => slots.taken, { timeout: 20_000 }).toBe(0);
    expect(engine.runs.list().map((r) => r.state)).toEqual(['cancelled']);
  }, 30_000);
});
