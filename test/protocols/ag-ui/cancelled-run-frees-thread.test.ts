import { afterEach, describe, expect, it } from 'vitest';
import type { SessionBusyError } from '../../../src/agent/session-busy-error.js';
import type { HarnessEngine } from '../../../src/engine/harness-engine.js';
import { agUiHandler, type AgUiEngine } from '../../../src/protocols/ag-ui/ag-ui-handler.js';
import type { Gate } from '../../support/deferred.js';
import { startNotingBusy, storeHoldingWrites } from '../../support/ending-run-store.js';
import type { AgentRoute } from '../../support/delegation-fixture.js';
import { serveProtocol, TOKEN, type ProtocolServer } from '../protocol-kit.js';
import { outcomeOf, postRunAgentInput, user } from './ag-ui-requests.js';

/**
 * A cancelled run gives its thread back only once its turn is closed in the session store
 * (the calls it left get their "cancelled" results): with a store that writes asynchronously
 * (a file, Redis) that is after the cancel, and the thread's next request, sent at once, was
 * refused as busy (409) by the run that had ended. It now waits, briefly, for the ending run.
 * The store's closing write is held on a gate until the request has been refused once, so
 * the refusal happens every time, however the machine is loaded.
 */
const CONFIRM = { name: 'confirm_plan', description: 'Asks the user', parameters: { type: 'object', properties: {} } };

let served: ProtocolServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A server whose store holds every write on `gate` once `armed`, and the busy refusals its handler heard from `engine.start`. */
async function serveGated(main: AgentRoute): Promise<{ url: string; engine: HarnessEngine; arm: () => Gate; busy: SessionBusyError[] }> {
  const held = storeHoldingWrites();
  const busy: SessionBusyError[] = [];
  served = await serveProtocol(
    '/ag-ui',
    { main },
    (engine, authorize) => {
      // The real engine, every call passed on; the refusals it throws are noted on their way.
      const watched: AgUiEngine = { runs: engine.runs, checkRunTools: (tools) => engine.checkRunTools(tools), start: startNotingBusy(engine, busy) };
      return agUiHandler(watched, { path: '/ag-ui', authorize });
    },
    { sessions: held.sessions },
  );
  return { url: served.url, engine: served.engine, arm: held.arm, busy };
}

describe('agUiHandler: the thread of a cancelled run', () => {
  it('starts the new turn that cancels a waiting run once the run has closed its turn, not a 409', async () => {
    const { url, engine, arm, busy } = await serveGated((turn) =>
      turn.prompt === 'first' ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: {} }] } : { text: `fresh: ${turn.prompt}` },
    );
    const first = await postRunAgentInput(url, { threadId: 't-new-turn', runId: 'r1', messages: [user('first')], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_ask'] });
    const gate = arm();
    const second = postRunAgentInput(url, { threadId: 't-new-turn', runId: 'r2', messages: [user('first'), user('second')], tools: [CONFIRM] });
    // the waiting run is cancelled, its closing write held: the new turn finds the thread busy
    await expect.poll(() => busy.length, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(engine.runs.get(busy[0]!.activeRunId)?.state).toBe('cancelled');
    gate.open();
    const answer = await second;
    expect(answer.status).toBe(200);
    expect(answer.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'fresh: second' });
    expect(engine.runs.list().map((r) => r.state)).toEqual(['cancelled', 'done']);
  }, 30_000);

  it('starts the next request of a thread whose client left its run, not a 409', async () => {
    const { url, engine, arm, busy } = await serveGated((turn) => (turn.prompt === 'hold' ? { hang: true } : { text: `fresh: ${turn.prompt}` }));
    const leaving = new AbortController();
    const body = JSON.stringify({ threadId: 't-left', runId: 'r1', messages: [user('hold')] });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };
    const response = await fetch(url, { method: 'POST', headers, body, signal: leaving.signal });
    await expect.poll(() => served!.fixture.server.requests.length, { timeout: 20_000 }).toBe(1);
    const gate = arm();
    leaving.abort();
    await response.text().catch(() => undefined);
    await expect.poll(() => engine.runs.list()[0]?.state, { timeout: 20_000 }).toBe('cancelled');
    const next = postRunAgentInput(url, { threadId: 't-left', runId: 'r2', messages: [user('hold'), user('again')] });
    await expect.poll(() => busy.length, { timeout: 20_000 }).toBeGreaterThan(0);
    gate.open();
    const answer = await next;
    expect(answer.status).toBe(200);
    expect(answer.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'fresh: again' });
  }, 30_000);

  it('waits no longer than ENDING_RUN_WAIT_MS for a store that never closes the turn: a 409 then, and no run started', async () => {
    const { url, engine, arm, busy } = await serveGated((turn) =>
      turn.prompt === 'first' ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: {} }] } : { text: `fresh: ${turn.prompt}` },
    );
    const first = await postRunAgentInput(url, { threadId: 't-stuck', runId: 'r1', messages: [user('first')], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_ask'] });
    const gate = arm();
    const second = await postRunAgentInput(url, { threadId: 't-stuck', runId: 'r2', messages: [user('first'), user('second')], tools: [CONFIRM] });
    expect(second.status).toBe(409);
    expect(JSON.parse(second.text)).toEqual({ error: expect.stringMatching(/^session "t-stuck" is busy/) });
    expect(busy.length).toBeGreaterThan(1); // tried again while it waited
    expect(engine.runs.list().map((r) => r.state)).toEqual(['cancelled']);
    gate.open();
  }, 30_000);

  it('still refuses (409) a request of a thread whose run is running', async () => {
    const { url, busy } = await serveGated(() => ({ hang: true }));
    const holding = new AbortController();
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` };
    const held = fetch(url, { method: 'POST', headers, body: JSON.stringify({ threadId: 't-busy', runId: 'r1', messages: [user('hold')] }), signal: holding.signal });
    await expect.poll(() => served!.fixture.server.requests.length, { timeout: 20_000 }).toBe(1);
    const second = await postRunAgentInput(url, { threadId: 't-busy', runId: 'r2', messages: [user('again')] });
    expect(second.status).toBe(409);
    expect(busy).toHaveLength(1);
    holding.abort();
    await held.then((r) => r.text()).catch(() => undefined);
  }, 30_000);
});
