import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_VALUES } from '../../../src/protocols/a2a/a2a-request.js';
import { a2aServerPerTest } from '../../support/a2a-server-per-test.js';

const a2a = a2aServerPerTest();

/** Posts a JSON-RPC request to `<url>/a2a`; resolves to the parsed answer. */
async function rpc(url: string, id: number, method: string, params: object): Promise<Record<string, unknown>> {
  const answer = await fetch(`${url}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  return (await answer.json()) as Record<string, unknown>;
}

/** A blocking A2A 0.3 `message/send`'s params: a text part, then `parts`, and `extra` fields of the message. */
const legacy = (parts: object[], extra: object = {}): object => ({
  configuration: { blocking: true },
  message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }, ...parts], ...extra },
});

/** The same in A2A 1.0's proto JSON (`SendMessage`). */
const proto = (parts: object[], extra: object = {}): object => ({
  configuration: { blocking: true },
  message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }, ...parts], ...extra },
});

/** 340,000 empty objects: about 1 MiB of JSON, one part (the parts cap does not see them). */
const flood = (): object[] => Array.from({ length: 340_000 }, () => ({}));

/**
 * The SDK copies a task, its user message too, into and out of its store on every update, and
 * for every `GetTask`. The parts cap bounds a message's parts, not what one part or the
 * message's metadata holds: one data part of 340,000 empty objects held the event loop for
 * seconds in its run, then a second for every `GetTask` of its task (which needs no run slot).
 */
describe('a2aHandler: the JSON values of a message', () => {
  it.each([
    ['A2A 0.3: a data part', 'message/send', legacy([{ kind: 'data', data: { rows: flood() } }])],
    ['A2A 0.3: a part\'s metadata', 'message/send', legacy([{ kind: 'text', text: 'more', metadata: { m: flood() } }])],
    ['A2A 0.3: the message\'s metadata', 'message/send', legacy([], { metadata: { m: flood() } })],
    ['A2A 0.3: the message\'s extensions', 'message/send', legacy([], { extensions: Array<string>(200_000).fill('') })],
    ['A2A 1.0: a data part', 'SendMessage', proto([{ data: flood() }])],
    ['A2A 1.0: the message\'s metadata', 'SendMessage', proto([], { metadata: { m: flood() } })],
  ])('%s of too many values is refused as invalid params, and starts no run', async (_name, method, params) => {
    const { engine, fixture, url } = await a2a.serve({ main: () => ({ text: 'done' }) });
    const refused = await rpc(url, 7, method, params);
    expect(refused).toMatchObject({
      id: 7,
      error: { code: -32602, message: expect.stringContaining(`a message may hold at most ${MAX_MESSAGE_VALUES} JSON values`) },
    });
    expect((refused.error as { message: string }).message).toContain('send large data as JSON text in a text part');
    expect(engine.runs.list()).toEqual([]);
    expect(fixture.server.requests).toHaveLength(0);
    // Nothing of it was stored: the server lists no task.
    expect(await rpc(url, 8, 'ListTasks', {})).toMatchObject({ id: 8, result: { tasks: [] } });
  }, 60_000);

  it('runs a realistic message with data parts and metadata', async () => {
    const { engine, url } = await a2a.serve({ main: (turn) => ({ text: `read: ${turn.prompt}` }) });
    const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, city: `city ${i}`, open: i % 2 === 0, tags: ['a', 'b'] }));
    const params = legacy(
      [{ kind: 'data', data: { columns: ['id', 'city', 'open', 'tags'], rows }, metadata: { source: 'crm' } }, { kind: 'file', file: { uri: 'https://example.com/a.csv', mimeType: 'text/csv' } }],
      { metadata: { client: 'dashboard', trace: { id: 't1', spans: [1, 2, 3] } }, extensions: ['https://example.com/ext/v1'] },
    );
    const answer = await rpc(url, 1, 'message/send', params);
    expect(answer).toMatchObject({ id: 1, result: { status: { state: 'completed', message: { parts: [{ text: 'read: hi' }] } } } });
    expect(engine.runs.list()).toHaveLength(1);
  }, 30_000);

  it.each([
    // The message, kind, messageId, role, the parts list, the text part (object, kind, text), the data part (object, kind, data, list).
    ['A2A 0.3', 'message/send', 12, (values: number[]) => legacy([{ kind: 'data', data: { values } }])],
    // The message, messageId, role, the parts list, the text part (object, text), the data part (object, list).
    ['A2A 1.0', 'SendMessage', 8, (values: number[]) => proto([{ data: values }])],
  ])('%s: a message of exactly MAX_MESSAGE_VALUES values runs, one more is refused', async (_name, method, overhead, paramsOf) => {
    const { engine, url } = await a2a.serve({ main: () => ({ text: 'done' }) });
    const atCap = await rpc(url, 1, method, paramsOf(Array<number>(MAX_MESSAGE_VALUES - overhead).fill(0)));
    expect(atCap).not.toHaveProperty('error');
    expect(engine.runs.list()).toHaveLength(1);
    const over = await rpc(url, 2, method, paramsOf(Array<number>(MAX_MESSAGE_VALUES - overhead + 1).fill(0)));
    expect(over).toMatchObject({ id: 2, error: { code: -32602 } });
    expect(engine.runs.list()).toHaveLength(1);
  }, 30_000);
});
