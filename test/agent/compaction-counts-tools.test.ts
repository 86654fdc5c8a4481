/**
 * Whether a request fits the context window is judged on the whole request: a session whose
 * messages fit, but not with the tool schemas the request carries, is compacted first.
 * (The check and `ContextSize` share one estimate, `estimateRequestTokens`.)
 */
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent, ContextSizeEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect-events.js';
import { pagedHistory } from '../support/compaction-kit.js';

/** A tool whose schema is about 900 estimated tokens. */
const wide: Tool = {
  name: 'wide',
  description: 'A tool with many documented parameters. '.repeat(20),
  parameters: { type: 'object', properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, { type: 'string', description: `parameter number ${i}, documented` }])) },
  execute: () => 'ok',
};

const ANSWER_ROOM = 100;

/** One turn on a session of six stored turns (about 5,000 tokens), under `contextWindow`. */
async function turn(tools: Tool[], contextWindow: number): Promise<AgentEvent[]> {
  const sessions = new MemorySessionStore();
  await sessions.append('s', pagedHistory());
  const model = new ScriptedModel((request) => ({ text: request.sender?.agentName === 'compaction' ? 'SUMMARY' : 'answered' }));
  const agent = new ReActAgent({ model, tools, sessions, instructions: 'Be brief.', settings: { contextWindow, maxTokens: ANSWER_ROOM } });
  return collect(agent.stream('One more question', { sessionId: 's' }));
}

describe('the compaction check counts the tool schemas', () => {
  it('messages that fit the window, but not with the tools: compacted before the request', async () => {
    // The messages alone, as a run without tools estimates them.
    const bare = await turn([], 1_000_000);
    const messages = bare.find((e): e is ContextSizeEvent => e.type === 'ContextSize')!.tokenCount;
    const window = messages + ANSWER_ROOM + 200; // room for the messages, not for the ~900 tokens of schema

    expect((await turn([], window)).filter((e) => e.type === 'Compaction')).toEqual([]);
    const withTools = await turn([wide], window);
    expect(withTools.find((e) => e.type === 'Compaction')).toMatchObject({ reason: 'context-limit', contextWindow: window });
    const size = withTools.find((e): e is ContextSizeEvent => e.type === 'ContextSize')!;
    expect(size.tokenCount + ANSWER_ROOM).toBeLessThanOrEqual(window);
  });
});
