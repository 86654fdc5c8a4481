/**
 * A custom `ChatModel` written in JavaScript may hand a tool call's `arguments` over as an
 * object, as some servers do (the HTTP readers turn theirs into text). Every model's finish
 * carries text arguments from where the agent takes it: the history, the session, the
 * estimates (a NaN silenced compaction and budgets) and the events all see a string.
 */
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import type { ChatModel, ChatRequest, ModelFinish, ModelToolCall } from '../../src/model/chat-model.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect-events.js';

/** A call as a JavaScript model might build it, its arguments an object. */
const objectCall = { id: 'c1', name: 'clock', arguments: { zone: 'UTC' } } as unknown as ModelToolCall;

describe('a custom model whose tool-call arguments are an object', () => {
  it('is stored, estimated and reported with the arguments as JSON text', async () => {
    const requests: ChatRequest[] = [];
    const model: ChatModel = {
      id: 'js-model',
      stream: (request) => {
        requests.push(request);
        const finish: ModelFinish = requests.length === 1 ? { type: 'finish', text: '', toolCalls: [objectCall] } : { type: 'finish', text: 'noon', toolCalls: [] };
        return of(finish);
      },
    };
    const seen: unknown[] = [];
    const clock: Tool = { name: 'clock', description: 'Tells the time.', parameters: { type: 'object' }, execute: (args) => (seen.push(args), '12:00') };
    const sessions = new MemorySessionStore();
    const events: AgentEvent[] = await collect(new ReActAgent({ model, tools: [clock], sessions }).stream('What time?', { sessionId: 's' }));

    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'noon' });
    expect(seen).toEqual([{ zone: 'UTC' }]);
    const sizes = events.flatMap((e) => (e.type === 'ContextSize' ? [e.tokenCount] : []));
    expect(sizes).toHaveLength(2);
    for (const size of sizes) expect(Number.isFinite(size)).toBe(true);
    const stored = sessions.load('s')[1];
    expect(stored).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'c1', function: { name: 'clock', arguments: '{"zone":"UTC"}' } }] });
    expect(requests[1]?.messages[1]).toEqual(stored);
  });
});
