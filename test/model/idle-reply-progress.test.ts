/**
 * What holds the idle timeout (`timeoutMs`) off: pieces of the reply. A whole JSON completion
 * arriving slowly but steadily is judged by its silences, as a stream is (it was stopped after
 * `timeoutMs` in all). Keep-alives, events that bring nothing of the reply and lines that are
 * no SSE show the server alive, but hold the reply for four times `timeoutMs` at most: a
 * server that sends only those forever never answers, and held the run for ever. Each attack
 * must end in a `ModelError`, its request aborted (the server sees the close). Outcomes only:
 * the limits are wide against the gaps (a 50 ms gap against 300 ms).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatRequest, ModelChunk } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { outcomeOf } from '../support/collect.js';
import { startTrickleServer, type Trickle, type TrickleServer } from './trickle-server.js';

const HELLO: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };
const SSE: OutgoingHttpHeaders = { 'content-type': 'text/event-stream' };
const JSON_TYPE: OutgoingHttpHeaders = { 'content-type': 'application/json' };
/** The limit of the attacks: pieces come every 50 ms, six of them within it. */
const LIMIT_MS = 300;

let server: TrickleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What one request to a server writing `trickle` ends with. */
async function ask(trickle: Trickle, timeoutMs = LIMIT_MS): Promise<{ values: ModelChunk[]; error: unknown }> {
  server = await startTrickleServer(trickle);
  const model = new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, timeoutMs });
  return outcomeOf(model.stream(HELLO));
}

/** `first`, then `forever` every 50 ms without end. */
const endless = (headers: OutgoingHttpHeaders, forever: string, first = ''): Trickle => ({ headers, gapMs: 50, piece: (i) => (i === 0 && first ? first : forever) });

const event = (chunk: object): string => `data: ${JSON.stringify(chunk)}\n\n`;
const COMMENTS = 'comments';
const EMPTY_CHUNKS = 'chunks without text, reasoning or tool calls';
const NOT_SSE = 'lines that are not SSE';
/** The error of a stream held by keep-alives alone for 4 x timeoutMs, naming what they were. */
const keepAlives = (what: string): RegExp => new RegExp(`^model "m": the server sent only keep-alives \\(${what}\\) for 1200 ms \\(4 x timeoutMs\\) after \\d+ chunks?: the stream was abandoned$`);

/** Expects a ModelError matching `message`, and the request closed by the client. */
async function expectAbandoned(outcome: { error: unknown }, message: RegExp | string): Promise<void> {
  expect(outcome.error).toBeInstanceOf(ModelError);
  if (typeof message === 'string') expect((outcome.error as ModelError).message).toBe(message);
  else expect((outcome.error as ModelError).message).toMatch(message);
  await expect.poll(() => server!.closedByClient).toBe(1);
  expect(server!.requests).toBe(1);
}

describe('a whole JSON completion is judged by its silences', () => {
  it('a large body arriving in small pieces well inside timeoutMs, for much longer than timeoutMs in all, is read whole', async () => {
    const head = '{"choices":[{"message":{"role":"assistant","content":"';
    const pieces = 50;
    // 50 pieces 30 ms apart: 1.5 s in all, two and a half times the limit; each gap a twentieth of it.
    const trickle: Trickle = { headers: JSON_TYPE, gapMs: 30, piece: (i) => (i === 0 ? head : i <= pieces ? 'abcd' : i === pieces + 1 ? '"},"finish_reason":"stop"}]}' : undefined) };
    const { values, error } = await ask(trickle, 600);
    expect(error).toBeUndefined();
    expect(values.at(-1)).toMatchObject({ type: 'finish', text: 'abcd'.repeat(pieces), finishReason: 'stop' });
    expect(server!.closedByClient).toBe(0);
  });

  it('a body that stops midway ends with a ModelError saying how much of it came, and the request is aborted', async () => {
    const head = '{"choices":[{"message":{"content":"';
    const outcome = await ask({ headers: JSON_TYPE, gapMs: 10, piece: (i) => (i === 0 ? head : null) });
    await expectAbandoned(outcome, `model "m": the server sent nothing for 300 ms (timeoutMs) after ${head.length} characters of a JSON completion: the response was abandoned`);
  });

  it('headers, then not one byte of the JSON body: a ModelError, the request aborted', async () => {
    const outcome = await ask({ headers: JSON_TYPE, gapMs: 10, piece: () => null });
    await expectAbandoned(outcome, 'model "m": the server sent nothing for 300 ms (timeoutMs) after 0 characters of a JSON completion: the response was abandoned');
  });
});

describe('keep-alives and empty events hold a stream open for 4 x timeoutMs, not for ever', () => {
  it('SSE comments (": ping") every 50 ms and no data: a ModelError after 4 x timeoutMs saying only keep-alives came, the request aborted', async () => {
    await expectAbandoned(await ask(endless(SSE, ': ping\n\n')), keepAlives(COMMENTS));
  });

  it('the same after part of an answer: its deltas, then the error', async () => {
    const outcome = await ask(endless(SSE, ': keep-alive\n\n', event({ choices: [{ index: 0, delta: { content: 'half an ans' } }] })));
    await expectAbandoned(outcome, keepAlives(COMMENTS));
    expect((outcome.error as ModelError).message).toContain('after 1 chunk:');
    expect(outcome.values).toEqual([{ type: 'text-delta', text: 'half an ans' }]);
  });

  for (const [what, piece, named] of [
    ['empty objects', event({}), EMPTY_CHUNKS],
    ['empty deltas', event({ choices: [{ index: 0, delta: { content: '' } }] }), EMPTY_CHUNKS],
    ['role-only deltas', event({ choices: [{ index: 0, delta: { role: 'assistant', content: null } }] }), EMPTY_CHUNKS],
    ['usage alone', event({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } }), EMPTY_CHUNKS],
    ['tool-call fragments that add nothing to the call begun', event({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '' } }] } }] }), EMPTY_CHUNKS],
    ['lines that are not SSE', 'still thinking...\n', NOT_SSE],
  ] as const) {
    it(`${what}, every 50 ms forever: a ModelError after 4 x timeoutMs naming them, the request aborted`, async () => {
      await expectAbandoned(await ask(endless(SSE, piece)), keepAlives(named));
    });
  }

  it('data: lines of whitespace only, forever: a ModelError at the first, saying what it was, the request aborted', async () => {
    const outcome = await ask(endless(SSE, 'data:    \n\n'));
    // `data: ` loses one space: the event's data is three.
    await expectAbandoned(outcome, /^model "m": the response could not be read \(chunk 1 is not JSON: .+; it was " {3}"\)$/);
  });

  it('headers, then not one byte of the stream: a ModelError after timeoutMs, the request aborted', async () => {
    await expectAbandoned(await ask({ headers: SSE, gapMs: 10, piece: () => null }), 'model "m": the server sent nothing for 300 ms (timeoutMs) after 0 chunks: the stream was abandoned');
  });

  it('the same finish_reason sent again and again, never [DONE] nor the end: only the first counts, and the reply fails', async () => {
    const finish = event({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    await expectAbandoned(await ask(endless(SSE, finish)), keepAlives(EMPTY_CHUNKS));
  });

  it('[DONE], then events without end: they are no sign of life; the reply is whole and finishes, the rest abandoned with its request', async () => {
    const { values, error } = await ask(endless(SSE, event({}), `${event({ choices: [{ index: 0, delta: { content: 'all of it' }, finish_reason: 'stop' }] })}data: [DONE]\n\n`));
    expect(error).toBeUndefined();
    expect(values.at(-1)).toMatchObject({ type: 'finish', text: 'all of it', finishReason: 'stop' });
    await expect.poll(() => server!.closedByClient).toBe(1);
  });

  it('keep-alives between the pieces of a healthy answer do no harm: it streams to its end', async () => {
    const chunks = 12;
    const trickle: Trickle = {
      headers: SSE,
      gapMs: 20,
      // A ping after every piece; the answer ends with its finish and [DONE].
      piece: (i) => (i > 2 * chunks ? undefined : i === 2 * chunks ? `${event({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}data: [DONE]\n\n` : i % 2 ? ': ping\n\n' : event({ choices: [{ index: 0, delta: { content: 'ab' } }] })),
    };
    const { values, error } = await ask(trickle, 1_000);
    expect(error).toBeUndefined();
    expect(values.at(-1)).toMatchObject({ type: 'finish', text: 'ab'.repeat(chunks), finishReason: 'stop' });
  });
});
