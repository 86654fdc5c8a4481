/**
 * A 400 that reads like a refusal of a request too long for the context window, in words
 * rxharness does not know, teaches no window and compacts nothing: every later turn of the
 * session would be refused the same way. Its error says to set the window by hand.
 */
import { firstValueFrom, lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

const HELLO = [{ role: 'user' as const, content: 'hi' }];
const HINT = /set the model's `contextWindow` setting \(the CLI's --context-window\) to the window in tokens/;

describe('a refusal in words no pattern knows', () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  /** The message of the model's error for a server answering `status` with `message`. */
  const failureOf = async (status: number, message: string): Promise<string> => {
    server = await FakeOpenAIServer.start({ replies: [{ status, errorMessage: message }] });
    const error = await firstValueFrom(openAIModelFor(server).stream({ messages: HELLO })).catch((e: unknown) => e as Error);
    await server.close();
    server = undefined;
    return (error as Error).message;
  };

  it.each([
    ['tokens and a context', 'the prompt has 9000 tokens, more than the 8192 this deployment takes in context'],
    ['tokens and a length', 'the tokens held back from the opening outnumber the length this engine allows'],
    ['the context length, without tokens', 'Request runs past the context length this engine allows'],
  ])('%s: its error says to set the window', async (_what, message) => {
    const said = await failureOf(400, message);
    expect(said.startsWith(`model "fake-model": HTTP 400: ${message} (if this says the request is longer than the model's context window`)).toBe(true);
    expect(said).toMatch(HINT);
  });

  it.each([
    ['a refusal it knows (the window is learned)', 400, "The input (9746 tokens) is longer than the model's context length (8192 tokens)."],
    ["LM Studio's refusal without counts (a refusal it knows)", 400, 'The number of tokens to keep from the initial prompt is greater than the context length'],
    ["older mlx-serve's bare refusal (a refusal it knows)", 400, 'Prompt exceeds maximum context length'],
    ['a max_tokens too large', 400, 'max_tokens is too large: 50000. This model supports at most 16384 completion tokens, whereas you provided 50000.'],
    ['a limit of tokens a minute', 400, 'Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 5000.'],
    ['a content too long in bytes', 400, "Invalid 'messages[2].content': string too long. Expected a string with maximum length 10485760."],
    ['no 400', 500, 'the worker failed with 9000 tokens of context'],
  ])('%s: no advice', async (_what, status, message) => {
    expect(await failureOf(status, message)).toBe(`model "fake-model": HTTP ${status}: ${message}`);
  });

  /** The message of the model's error for a stream that sends `message` as an error event after a first delta. */
  const streamedFailureOf = async (message: string): Promise<string> => {
    const events = [{ choices: [{ index: 0, delta: { content: 'Hel' } }] }, { error: { message } }];
    server = await FakeOpenAIServer.start({ replies: [{ rawSse: events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') }] });
    const error = await lastValueFrom(openAIModelFor(server).stream({ messages: HELLO })).catch((e: unknown) => e as Error);
    return (error as Error).message;
  };

  it('sent as an error event in a stream, not as a 400: its error says to set the window too', async () => {
    const message = 'the prompt has 9000 tokens, more than the 8192 this deployment takes in context';
    const said = await streamedFailureOf(message);
    expect(said.startsWith(`model "fake-model": the stream reported an error: ${message} (if this says`)).toBe(true);
    expect(said).toMatch(HINT);
  });

  it.each([
    ['a refusal it knows', 'Context size has been exceeded.'],
    ['another failure', 'overloaded, try later'],
  ])('sent in a stream, %s: no advice', async (_what, message) => {
    expect(await streamedFailureOf(message)).toBe(`model "fake-model": the stream reported an error: ${message}`);
  });
});
