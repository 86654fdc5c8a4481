import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { agUiHandler } from '../../../src/protocols/ag-ui/ag-ui-handler.js';
import { RunSlots } from '../../../src/http/run-slots.js';
import { agUiServerPerTest } from '../../support/ag-ui-server-per-test.js';
import { TOKEN } from '../protocol-kit.js';
import { outcomeOf, postRunAgentInput, user } from './ag-ui-requests.js';

/**
 * Every AG-UI request is a `RunAgentInput`, and not every one starts a run: the answer to a
 * run that waits for its client (a frontend tool's result, an approval's `resume`) continues
 * that run and needs no run slot. While every shared `maxRuns` slot is taken (runs of other
 * handlers hold them: `rxharness serve` gives all handlers one `RunSlots`), a body is read on
 * a slot lent for a waiting run, one per waiting run; a body on its way (a new turn of another
 * client, a slow or hostile one) held that lent slot, and the answer was refused `429`. Such
 * answers are read on the handler's own `maxControlRequests` slots, as A2A's reads of tasks are.
 */
const agUi = agUiServerPerTest();
const open: ClientRequest[] = [];
afterEach(() => {
  for (const req of open.splice(0)) req.destroy();
});

interface Trickle {
  readonly req: ClientRequest;
  readonly answer: Promise<IncomingMessage>;
  sent: boolean;
}

/** A request with the token whose body starts and never ends. */
function trickle(url: string): Trickle {
  const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': '100000', authorization: `Bearer ${TOKEN}` } });
  const answer = new Promise<IncomingMessage>((resolve, reject) => req.on('response', resolve).on('error', reject));
  answer.catch(() => undefined); // destroyed by the test
  const slow: Trickle = { req, answer, sent: false };
  req.write('{"threadId": "t-slow", ', () => (slow.sent = true));
  open.push(req);
  return slow;
}

const CONFIRM = { name: 'confirm_plan', description: 'Asks the user', parameters: { type: 'object', properties: {} } };
const ANSWER = { id: 'tool-1', role: 'tool', toolCallId: 'call_ask', content: 'yes' };

describe('agUiHandler: the answer to a waiting run while other handlers\' runs hold every shared slot', () => {
  it('is read on a control slot when a body on its way holds the lent one; bounded by maxControlRequests; a new turn still needs a run slot', async () => {
    const slots = new RunSlots(2);
    const served = await agUi.serve(
      { main: (turn) => (turn.step === 1 ? { toolCalls: [{ id: 'call_ask', name: 'confirm_plan', arguments: {} }] } : { text: `after: ${turn.toolResults.at(-1) ?? 'nothing'}` }) },
      { handler: { maxRuns: slots, maxControlRequests: 1, bodyTimeoutMs: 120_000 } },
    );
    const first = await postRunAgentInput(served.url, { threadId: 't-a', runId: 'r1', messages: [user('go')], tools: [CONFIRM] });
    expect(outcomeOf(first)).toMatchObject({ pendingToolCallIds: ['call_ask'] });
    const other = slots.take(); // a run of another handler sharing the slots: now every one is held
    try {
      expect(slots.taken).toBe(2);
      // a new turn of another client, its body on its way: read on the slot lent for the waiting run
      const lent = trickle(served.url);
      await vi.waitFor(() => expect(lent.sent).toBe(true));
      // and one more on the only control slot: now an answer finds no slot, named in the refusal
      const control = trickle(served.url);
      await vi.waitFor(() => expect(control.sent).toBe(true));
      const refused = await postRunAgentInput(served.url, { threadId: 't-a', runId: 'r2', messages: [user('go'), ANSWER], tools: [CONFIRM] });
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.text)).toMatchObject({ error: expect.stringContaining('maxControlRequests') });
      // the control slot free again (its client gone): the answer is read and continues the run
      control.req.destroy();
      await vi.waitFor(async () => {
        const answered = await postRunAgentInput(served.url, { threadId: 't-a', runId: 'r2', messages: [user('go'), ANSWER], tools: [CONFIRM] });
        expect(answered.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: 'after: yes' });
      }, { timeout: 10_000 });
      await vi.waitFor(() => expect(slots.taken).toBe(1), { timeout: 10_000 }); // the run ended; no request kept a slot
      // every slot held elsewhere and no run waiting: a new turn is read on the control slot, but needs a run slot
      const another = slots.take();
      try {
        for (const threadId of ['t-b', 't-c']) {
          const turn = await postRunAgentInput(served.url, { threadId, runId: 'r1', messages: [user('go')] });
          expect(turn.status).toBe(429);
          // maxRuns, not maxControlRequests: the first gave its control slot back
          expect(JSON.parse(turn.text)).toMatchObject({ error: expect.stringContaining('maxRuns') });
          expect(JSON.parse(turn.text).error).not.toContain('maxControlRequests');
        }
      } finally {
        another();
      }
      expect(served.engine.runs.list().map((r) => r.state)).toEqual(['done']);
      expect(() => agUiHandler(served.engine, { maxControlRequests: 0 })).toThrow(/maxControlRequests/);
    } finally {
      other();
    }
  }, 60_000);

});
