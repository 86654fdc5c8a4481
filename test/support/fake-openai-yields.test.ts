import { afterEach, beforeEach, expect, it } from 'vitest';
import { clientFor, collect, HELLO } from './fake-openai-client.js';
import { FakeOpenAIServer } from './fake-openai-server.js';

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(async () => {
  await server.close();
});

it('gives the event loop a turn while a big reply streams, and still sends it whole', async () => {
  // 3,125 events (about 750 kB): small enough for the loopback buffers to take every write at
  // once, so only the server's own yielding lets anything else run before the reply ends.
  const text = 'a streamed answer of some length '.repeat(1_515).slice(0, 50_000);
  server.enqueue({ text, chunkSize: 16 });
  const chunks = clientFor(server).chat.completions.create({ ...HELLO, stream: true }).then(collect);
  // Nothing yields between the request's arrival and the first write: this immediate is
  // queued while the reply is being written.
  await server.waitForRequests(1);
  const finishedWhenTheLoopTurned = await new Promise<boolean>((resolve) => setImmediate(() => resolve(server.requests[0]?.completed === true)));
  expect(finishedWhenTheLoopTurned).toBe(false);
  const streamed = (await chunks).map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
  expect(streamed).toBe(text);
  expect((await server.waitForClosed(0)).completed).toBe(true);
});
