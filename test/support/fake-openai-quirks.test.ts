import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeOpenAIServer, type FakeReply } from './fake-openai-server.js';
import { clientFor, HELLO } from './fake-openai-client.js';

// The odd and broken shapes the fake server can send on purpose, read off the wire as the
// client receives them (the raw body of a streaming request).

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(async () => {
  await server.close();
});

interface Wire {
  readonly contentType: string | null;
  readonly body: string;
  /** The JSON of each `data:` line but `[DONE]`. */
  readonly chunks: Array<Record<string, unknown>>;
  readonly done: boolean;
}

async function wireOf(reply: FakeReply): Promise<Wire> {
  server.enqueue(reply);
  const request = { ...HELLO, stream: true as const, stream_options: { include_usage: true } };
  const response = await clientFor(server).chat.completions.create(request).asResponse();
  const body = await response.text();
  const data = body.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
  return {
    contentType: response.headers.get('content-type'),
    body,
    chunks: data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d) as Record<string, unknown>),
    done: data.includes('[DONE]'),
  };
}

const choiceOf = (chunk: Record<string, unknown>) => (chunk['choices'] as Array<Record<string, unknown>>)[0];

describe('fake server quirks', () => {
  it('endAfterChunks ends the body cleanly after that many chunks: no finish chunk, no usage, no [DONE]', async () => {
    const wire = await wireOf({ text: 'abcdefghijkl', chunkSize: 2, endAfterChunks: 3 });
    expect(wire.chunks).toHaveLength(3);
    expect(wire.done).toBe(false);
    expect(wire.chunks.every((c) => choiceOf(c)?.['finish_reason'] === null)).toBe(true);
    expect((await server.waitForClosed(0)).completed).toBe(true);
  });

  it('omitDone leaves out only the [DONE] line', async () => {
    const wire = await wireOf({ text: 'hi', omitDone: true });
    expect(wire.done).toBe(false);
    expect(wire.chunks.at(-1)?.['usage']).toMatchObject({ total_tokens: expect.any(Number) });
    expect(choiceOf(wire.chunks.at(-2)!)?.['finish_reason']).toBe('stop');
  });

  it('ignoreStream answers a streaming request with a JSON chat.completion', async () => {
    const wire = await wireOf({ text: 'whole', ignoreStream: true });
    expect(wire.contentType).toBe('application/json');
    expect(JSON.parse(wire.body)).toMatchObject({ object: 'chat.completion', choices: [{ message: { content: 'whole' } }] });
  });

  it('omitToolCallIndex strips index from every tool-call fragment and keeps the rest', async () => {
    const wire = await wireOf({ toolCalls: [{ id: 'a', name: 'read', arguments: { path: 'x' } }], omitToolCallIndex: true });
    const fragments = wire.chunks.flatMap((c) => ((choiceOf(c)?.['delta'] as Record<string, unknown> | undefined)?.['tool_calls'] as unknown[]) ?? []);
    expect(fragments.length).toBeGreaterThan(2);
    expect(fragments.some((f) => 'index' in (f as object))).toBe(false);
    expect(fragments[0]).toEqual({ id: 'a', type: 'function', function: { name: 'read', arguments: '' } });
  });

  it('omitFinishDelta sends the finish chunk without delta', async () => {
    const wire = await wireOf({ text: 'hi', omitFinishDelta: true });
    const finish = wire.chunks.find((c) => choiceOf(c)?.['finish_reason'] === 'stop')!;
    expect(choiceOf(finish)).not.toHaveProperty('delta');
    expect(wire.chunks.filter((c) => choiceOf(c) && !('delta' in choiceOf(c)!))).toHaveLength(1);
  });

  it('rawUsage is sent as it is', async () => {
    const wire = await wireOf({ text: 'hi', rawUsage: { prompt_tokens: 4 } });
    expect(wire.chunks.at(-1)?.['usage']).toEqual({ prompt_tokens: 4 });
  });

  it('stallAfterChunks sends that many chunks, then nothing, with the connection left open until the client leaves', async () => {
    server.enqueue({ text: 'abcdefgh', chunkSize: 2, stallAfterChunks: 2 });
    const controller = new AbortController();
    const response = await clientFor(server)
      .chat.completions.create({ ...HELLO, stream: true }, { signal: controller.signal })
      .asResponse();
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while ((text.match(/^data: /gm) ?? []).length < 2) text += (await reader.read()).value ?? '';
    const next = await Promise.race([reader.read().then(() => 'more'), new Promise((r) => setTimeout(() => r('silent'), 150))]);
    expect(next).toBe('silent');
    expect(server.requests[0]?.endedAt).toBeUndefined();
    controller.abort();
    expect(await server.waitForClosed(0)).toMatchObject({ aborted: true, completed: false });
  });
});
