/**
 * SSE lines that bring no data (`event:`, `id:`, `retry:` and bare line ends) are bytes from a
 * live server: keep-alives, like comments and empty chunks. They counted as nothing, so a
 * server sending only those was given up after `timeoutMs` as if it "sent nothing"; now they
 * hold the reply for 4 x `timeoutMs` (as every keep-alive does) and the error names them.
 * Against a real socket; outcomes only: the limits are wide against the gaps (a 50 ms gap
 * against 300 ms).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import type { ChatRequest } from '../../src/model/chat-model.js';
import { ModelError } from '../../src/model/model-error.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { collect } from '../support/collect-events.js';
import { outcomeOf } from '../support/collect.js';
import { makeWorkspace, type TestWorkspace } from '../support/tool-context.js';
import { startTrickleServer, type Trickle, type TrickleServer } from './trickle-server.js';

const HELLO: ChatRequest = { messages: [{ role: 'user', content: 'hello' }] };
const SSE: OutgoingHttpHeaders = { 'content-type': 'text/event-stream' };
const LIMIT_MS = 300;
const NO_DATA = /^model "m": the server sent only keep-alives \(SSE lines without data \(event:, id:, retry: or empty lines\)\) for 1200 ms \(4 x timeoutMs\) after 0 chunks: the stream was abandoned$/;
const event = (chunk: object): string => `data: ${JSON.stringify(chunk)}\n\n`;

let server: TrickleServer | undefined;
let workspace: TestWorkspace | undefined;
afterEach(async () => {
  await server?.close();
  await workspace?.cleanup();
  server = undefined;
  workspace = undefined;
});

/** `piece` every 50 ms, forever. */
const forever = (piece: string): Trickle => ({ headers: SSE, gapMs: 50, piece: () => piece });

async function modelFor(trickle: Trickle): Promise<OpenAIChatModel> {
  server = await startTrickleServer(trickle);
  // A known window: the server is not asked for it (its `/props` would trickle the same).
  return new OpenAIChatModel({ model: 'm', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, timeoutMs: LIMIT_MS, settings: { contextWindow: 8_192 } });
}

describe('SSE lines without data are keep-alives', () => {
  for (const [what, piece] of [
    ['event: lines', 'event: ping\n\n'],
    ['id: and retry: lines', 'id: 1\nretry: 1000\n\n'],
    ['bare line ends', '\n'],
  ] as const) {
    it(`${what} every 50 ms forever: held 4 x timeoutMs, then a ModelError naming them, the request aborted`, async () => {
      const { values, error } = await outcomeOf((await modelFor(forever(piece))).stream(HELLO));
      expect(values).toEqual([]);
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).message).toMatch(NO_DATA);
      await expect.poll(() => server!.closedByClient).toBe(1);
      expect(server!.requests).toBe(1);
    });
  }

  it('a mix of them with comments: the error names both kinds', async () => {
    const { error } = await outcomeOf((await modelFor(forever(': ping\n\nevent: ping\n\n'))).stream(HELLO));
    expect((error as ModelError).message).toContain('only keep-alives (comments and SSE lines without data (event:, id:, retry: or empty lines)) for 1200 ms');
    await expect.poll(() => server!.closedByClient).toBe(1);
  });

  it('the error names only what came since the last piece of the reply', async () => {
    // An empty chunk, a piece of the answer, then event: lines forever: the empty chunk is not named.
    const first = [event({}), event({ choices: [{ index: 0, delta: { content: 'half' } }] })];
    const { error } = await outcomeOf((await modelFor({ headers: SSE, gapMs: 50, piece: (i) => first[i] ?? 'event: ping\n\n' })).stream(HELLO));
    expect((error as ModelError).message).toContain('only keep-alives (SSE lines without data (event:, id:, retry: or empty lines)) for 1200 ms (4 x timeoutMs) after 2 chunks:');
    await expect.poll(() => server!.closedByClient).toBe(1);
  });

  it('a healthy answer whose events carry event: and id: lines streams to its end', async () => {
    const tagged = (i: number, chunk: object): string => `event: message\nid: ${i}\n${event(chunk)}`;
    const trickle: Trickle = {
      headers: SSE,
      gapMs: 20,
      piece: (i) => (i < 5 ? tagged(i, { choices: [{ index: 0, delta: { content: 'ab' } }] }) : i === 5 ? tagged(i, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) : undefined),
    };
    const { values, error } = await outcomeOf((await modelFor(trickle)).stream(HELLO));
    expect(error).toBeUndefined();
    expect(values.at(-1)).toMatchObject({ type: 'finish', text: 'ababababab', finishReason: 'stop' });
  });

  it('a run whose server sends only event: lines ends with exactly one terminal event, abnormal, saying what came', async () => {
    const model = await modelFor(forever('event: ping\n\n'));
    workspace = await makeWorkspace();
    const engine = new HarnessEngine({ model, workspace: workspace.dir, homeDir: workspace.home });
    try {
      const events = await collect(engine.stream('hello'));
      const ends = events.filter((e) => e.type === 'RunEnd');
      expect(ends).toHaveLength(1);
      expect(events.at(-1)).toBe(ends[0]);
      expect(ends[0]).toMatchObject({ abnormal: true, error: expect.stringMatching(/only keep-alives \(SSE lines without data/) });
      await expect.poll(() => server!.closedByClient).toBe(1);
      expect(server!.requests).toBe(1);
    } finally {
      await engine.close();
    }
  });
});
