import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunSlots } from '../../../src/http/run-slots.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { TOKEN } from '../protocol-kit.js';
import { outcomeOf, postRunAgentInput, user } from './ag-ui-requests.js';

/**
 * A request's body on its way holds memory (up to `maxBodyBytes`, for up to `bodyTimeoutMs`),
 * so it counts against `maxRuns` as in `runsHandler` and `chatHandler`, then against the
 * handler's `maxControlRequests`: one more is refused (`429`) before its body is read. The AG-UI handler read every body first, so a client that
 * opened many requests and trickled their bodies held a megabyte each, beyond any cap. While
 * runs wait for their clients (holding their slots), as many more bodies may come: each may
 * be the answer one waits for.
 */
const agUi = agUiServerPerTest();
const open: ClientRequest[] = [];
afterEach(() => {
  for (const req of open.splice(0)) req.destroy();
});

/** Starts a request whose body never ends; resolves with the answer, if one comes before the body. */
function trickle(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` } }, resolve);
    req.on('error', reject);
    req.write('{"threadId": "t-slow", ');
    open.push(req);
  });
}

const CONFIRM = { name: 'confirm_plan', description: 'Asks the user', parameters: { type: 'object', properties: {} } };

describe('agUiHandler: bodies on their way count against maxRuns', () => {
  it('refuses a request beyond maxRuns and maxControlRequests (429) before reading its body, while other bodies are on their way', async () => {
    const slots = new RunSlots(1);
    const { url } = await agUi.serve({ main: () => ({ text: 'never asked' }) }, { handler: { maxRuns: slots, maxControlRequests: 1, bodyTimeoutMs: 3_000 } });
    void trickle(url).catch(() => undefined);
    await vi.waitFor(() => expect(slots.taken).toBe(1));
    // of two more, one is read on the control slot (it may be an answer), the other finds none
    const answers = [trickle(url), trickle(url)];
    for (const answer of answers) answer.catch(() => undefined);
    const refused = await Promise.race(answers);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
  }, 30_000);

  it('still reads the answer to a run that waits for its client, and a new turn of its thread, when the run holds the only slot', async () => {
    const served = await agUi.serve(
      { main: (turn) => (turn.step === 1 ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: {} }] } : { text: `after: ${turn.toolResults.at(-1) ?? 'nothing'}` }) },
      { handler: { maxRuns: 1 } },
    );
    const first = await postRunAgentInput(served.url, { threadId: 't-one', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_ask'] });
    const answer = { id: 'tool-1', role: 'tool', toolCallId: 'call_ask', content: 'yes' };
    const second = await postRunAgentInput(served.url, { threadId: 't-one', runId: 'r2', messages: [user('go'), answer], tools: [CONFIRM] });
    expect(second.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'after: yes' });
    const third = await postRunAgentInput(served.url, { threadId: 't-two', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(outcomeOf(third)).toMatchObject({ pendingToolCallIds: ['call_ask'] });
    const fourth = await postRunAgentInput(served.url, { threadId: 't-two', runId: 'r2', messages: [user('go'), user('never mind')], tools: [CONFIRM] });
    expect(outcomeOf(fourth)).toMatchObject({ pendingToolCallIds: ['call_ask'] });
    expect(served.engine.runs.list().map((r) => r.state)).toEqual(['done', 'cancelled', 'running']);
  }, 30_000);

  it('gives back the slot of every request it refuses or that answers a waiting run: only running runs hold one', async () => {
    const slots = new RunSlots(2);
    const served = await agUi.serve(
      { main: (turn) => (turn.step === 1 ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: {} }] } : { text: 'done' }) },
      { handler: { maxRuns: slots } },
    );
    const first = await postRunAgentInput(served.url, { threadId: 't-a', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_ask'] });
    const refused = [
      { threadId: 't-a', runId: 'r2', messages: [user('go'), { id: 'x', role: 'tool', toolCallId: 'call_never', content: 'forged' }], tools: [CONFIRM] },
      { threadId: 't-a', runId: 'r2', messages: [user('go')], tools: [CONFIRM], resume: [7] },
      { threadId: 't-b', runId: 'r1', messages: [user('go')], tools: [{ name: 'bash' }] },
      { threadId: 't-b', runId: 'r1', messages: 'not a list' },
    ];
    for (const body of refused) expect((await postRunAgentInput(served.url, body)).status).toBe(400);
    expect(slots.taken).toBe(1);
    const answer = { id: 'tool-1', role: 'tool', toolCallId: 'call_ask', content: 'yes' };
    const answered = await postRunAgentInput(served.url, { threadId: 't-a', runId: 'r3', messages: [user('go'), answer], tools: [CONFIRM] });
    expect(answered.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'done' });
    await vi.waitFor(() => expect(slots.taken).toBe(0));
  }, 30_000);
});
