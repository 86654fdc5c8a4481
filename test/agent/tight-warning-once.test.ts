/**
 * The `context-window-tight` Warning is told once a run, however many of its steps compact:
 * what was told is the run's own state (`RunState.warnedOnce`), not the step's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect-events.js';
import { isSummaryRequest, SUMMARY } from '../support/compaction-kit.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { TEXT_PARAMETERS } from '../support/test-tools.js';

let server: FakeOpenAIServer | undefined;
afterEach(() => server?.close());

/** A tool whose schema takes some 3,100 tokens, never called: a 4,096-token window keeps the conversation a few hundred. */
const wordy: Tool<{ text: string }> = { name: 'wordy', description: 'Does a thing. '.repeat(880), parameters: TEXT_PARAMETERS, execute: () => 'ok' };
/** A tool of some 150 tokens of output: two of them outgrow the conversation's room. */
const note: Tool<{ text: string }> = { name: 'note', description: 'Reads a note.', parameters: TEXT_PARAMETERS, execute: (args) => `${args.text}: ${'a line of the note. '.repeat(30)}` };

const STEPS = 6;

describe('a run whose window leaves the conversation little room', () => {
  it('compacts at several of its steps and is told context-window-tight once, after its first Compaction', async () => {
    server = await FakeOpenAIServer.start({
      handler: (r) => {
        if (isSummaryRequest(r)) return { text: SUMMARY };
        const results = (r.body.messages ?? []).filter((m) => m.role === 'tool').length;
        return r.body.tools !== undefined && r.index < STEPS * 2 && results < STEPS ? { toolCalls: [{ name: 'note', arguments: { text: `note ${r.index}` } }] } : { text: 'done' };
      },
    });
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions: new MemorySessionStore(), tools: [wordy, note], settings: { contextWindow: 4_096 }, maxSteps: STEPS + 2 });
    const events: AgentEvent[] = await collect(agent.stream('read the notes', { sessionId: 's' }));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
    const compactions = events.filter((e) => e.type === 'Compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    const tight = events.filter((e) => e.type === 'Warning' && e.code === 'context-window-tight');
    expect(tight).toHaveLength(1);
    expect(events.indexOf(tight[0]!)).toBeGreaterThan(events.indexOf(compactions[0]!));
  });
});
