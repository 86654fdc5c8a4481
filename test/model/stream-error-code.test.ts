/**
 * An error event in a stream is read as an error object in a 200 JSON body is (and as a 400's):
 * its words and its `code`. A proxy that refuses a prompt too long mid-stream with only the
 * code `context_length_exceeded` (its words unknown) was not taken for a refusal: the window was
 * never learned, nothing was compacted, and every turn past it failed the same way.
 */
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { contextExceeded } from '../../src/model/context-exceeded.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { collect } from '../support/collect-events.js';
import { isSummaryRequest, pagedHistory, SUMMARY } from '../support/compaction-kit.js';
import { estimateUsage, type FakeReply } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { modelFailurePerTest } from './model-failure.js';

const CODE_ONLY = { message: 'Please reduce the length of the messages or completion.', type: 'invalid_request_error', code: 'context_length_exceeded' };

/** A 200 stream whose first event is an error event carrying `error`. */
const streamError = (error: unknown): FakeReply => ({ rawSse: `data: ${JSON.stringify({ error })}\n\n` });

describe('an error event in a stream', () => {
  const { failureOf, start } = modelFailurePerTest();

  it('whose only sign of a refusal is the code context_length_exceeded: a refusal, and the code is said', async () => {
    const error = await failureOf(streamError(CODE_ONLY));
    expect(error.message).toBe('model "fake-model": the stream reported an error: Please reduce the length of the messages or completion. (context_length_exceeded)');
    expect(contextExceeded(error)).toEqual({});
  });

  it('with another code: said, and no refusal', async () => {
    const error = await failureOf(streamError({ message: 'overloaded, try later', code: 'server_error' }));
    expect(error.message).toBe('model "fake-model": the stream reported an error: overloaded, try later (server_error)');
    expect(contextExceeded(error)).toBeUndefined();
  });

  it('a string: said as it is, no quotes', async () => {
    const error = await failureOf(streamError('prompt too long; exceeded max context length by 12 tokens'));
    expect(error.message).toBe('model "fake-model": the stream reported an error: prompt too long; exceeded max context length by 12 tokens');
  });

  it('a session past the window of a server refusing so mid-stream: compacted, and the turn succeeds', { timeout: 60_000 }, async () => {
    const WINDOW = 8_192;
    const server = await start({
      handler: (request): FakeReply => {
        if (estimateUsage(request.body, {}).prompt_tokens > WINDOW) return streamError(CODE_ONLY);
        return { text: isSummaryRequest(request) ? SUMMARY : 'ok' };
      },
    });
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory(12));
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions });
    const events: AgentEvent[] = await collect(agent.stream('And now?', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ok' });
    expect(events.filter((e) => e.type === 'Compaction').map((e) => e.type === 'Compaction' && e.reason)).toEqual(['context-exceeded']);
  });
});
