/**
 * What a failed request streamed is counted once. The built-in `OpenAIChatModel`'s reader
 * counts it for its size limit and carries that count on its failure; a step counts the
 * deltas itself only for another model, whose errors carry nothing (one of the user's own,
 * a wrapper, a subclass that streams its own way). Either way the request is charged, and
 * charged once. (test/model/budget-cut-stream.test.ts: the built-in model alone;
 * test/agent/failed-request-charge.test.ts: a scripted model of the user's own.)
 */
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatModel, ChatRequest, ModelChunk } from '../../src/model/chat-model.js';
import { CHARS_PER_TOKEN } from '../../src/model/estimate-tokens.js';
import { OpenAIChatModel } from '../../src/model/openai-chat-model.js';
import { testAgentPrompt } from '../support/agent-turns.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { chargeOfChild } from '../support/failed-child-charge.js';

let f: DelegationFixture;
afterEach(() => f.close());

/** Whether `request` is the worker's (its system prompt names it). */
function fromWorker(request: ChatRequest): boolean {
  const first = request.messages[0];
  return first?.role === 'system' && String(first.content).startsWith(testAgentPrompt('worker'));
}

describe('a failed request is charged what it streamed, counted once', () => {
  it('a subclass of OpenAIChatModel streaming its own way (no marked errors) is counted by the step', async () => {
    const streamed = 'q'.repeat(40);
    class OwnTransport extends OpenAIChatModel {
      override stream(request: ChatRequest): Observable<ModelChunk> {
        if (!fromWorker(request)) return super.stream(request);
        return new Observable<ModelChunk>((out) => {
          out.next({ type: 'text-delta', text: streamed });
          out.error(new Error('own transport dropped'));
        });
      }
    }
    f = await startDelegationFixture();
    const model = new OwnTransport({ model: 'fake-model', baseURL: f.server.baseURL, apiKey: 'test', maxRetries: 0 });
    const { charged, prompt, childEnd } = await chargeOfChild(f, () => ({ text: 'unused' }), { model });
    expect(childEnd).toMatchObject({ abnormal: true, error: expect.stringContaining('own transport dropped') });
    expect(charged).toBe(prompt + Math.ceil(streamed.length / CHARS_PER_TOKEN));
  });

  it("a wrapper of the user's own around the built-in model: counted by both, charged once", async () => {
    f = await startDelegationFixture();
    const inner = f.model('fake-model');
    const wrapper: ChatModel = { id: 'wrapped', stream: (request) => inner.stream(request) };
    // Two chunks of 16 characters, then the connection is reset.
    const { charged, prompt } = await chargeOfChild(f, () => ({ text: 'x'.repeat(64), chunkSize: 16, resetAfterChunks: 2 }), { model: wrapper });
    expect(charged).toBe(prompt + (2 * 16) / CHARS_PER_TOKEN);
  });
});
