/**
 * The agent of the compaction tests over a server that names its window only by refusing: a
 * ReActAgent on a fake server without `/props`, its session `s` holding two paged turns, the
 * servers closed after each test.
 *
 * @module
 */
import { afterEach } from 'vitest';
import { ReActAgent } from '../../../src/agent/react-agent.js';
import type { AgentEvent, CompactionEvent } from '../../../src/events/agent-event.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { pagedHistory } from '../../support/compaction-kit.js';
import { FakeOpenAIServer, type FakeHandler } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';

/** An agent of {@link propslessAgentsPerTest}, its session store and its server. */
export interface PropslessAgent {
  readonly agent: ReActAgent;
  readonly sessions: MemorySessionStore;
  readonly server: FakeOpenAIServer;
}

/**
 * Registers the `afterEach` closing every server made, and returns the maker of an agent on a
 * server without `/props` (the window is unknown until a refusal names it) answering with
 * `handler`. Call at the top of a test file.
 */
export function propslessAgentsPerTest(): (handler: FakeHandler) => Promise<PropslessAgent> {
  const servers: FakeOpenAIServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (handler) => {
    const server = await FakeOpenAIServer.start({ handler });
    servers.push(server);
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory(2));
    return { agent: new ReActAgent({ model: openAIModelFor(server), sessions }), sessions, server };
  };
}

/** The Compaction events among `events`. */
export const compactionsOf = (events: readonly AgentEvent[]): CompactionEvent[] => events.filter((e): e is CompactionEvent => e.type === 'Compaction');
