/**
 * Tool-call ids as a server sends them, read through the real `openai` client from both a
 * stream and a whole JSON completion: within one message every call gets an id of its own
 * (a repeated one a suffix, a missing one `call_<n>` that no other call holds), and ids that
 * are already unique stay byte for byte as sent.
 */
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelFinish } from '../../src/model/chat-model.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await FakeOpenAIServer.start();
});
afterEach(async () => {
  await server.close();
});

/** The ids of the calls the model reads from a reply whose calls have `sent` ids. */
async function idsRead(sent: readonly string[], ignoreStream: boolean): Promise<string[]> {
  server.enqueue({ ignoreStream, toolCalls: sent.map((id, i) => ({ id, name: 'clock', arguments: { i } })) });
  const chunks = await lastValueFrom(openAIModelFor(server).stream({ messages: [{ role: 'user', content: 'hi' }] }).pipe(toArray()));
  const finish = chunks.at(-1) as ModelFinish;
  // Each call is still the one sent at its place: only ids change.
  expect(finish.toolCalls.map((c) => c.arguments)).toEqual(sent.map((_, i) => JSON.stringify({ i })));
  return finish.toolCalls.map((c) => c.id);
}

describe.each([
  ['a stream', false],
  ['a whole JSON completion', true],
])('tool-call ids read from %s', (_name, ignoreStream) => {
  it.each([
    ['the same id twice', ['dup', 'dup'], ['dup', 'dup_2']],
    ['a repeated id whose first suffix is another call\'s id', ['a', 'a', 'a_2'], ['a', 'a_3', 'a_2']],
    ['a missing id where another call has the name it would get', ['', 'call_0'], ['call_0_2', 'call_0']],
    ['missing ids', ['', ''], ['call_0', 'call_1']],
    ['unique ids, kept byte for byte', ['call ü/1', 'CALL ü/1', 'x_2'], ['call ü/1', 'CALL ü/1', 'x_2']],
  ])('%s', async (_case, sent, read) => {
    const ids = await idsRead(sent, ignoreStream);
    expect(ids).toEqual(read);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
