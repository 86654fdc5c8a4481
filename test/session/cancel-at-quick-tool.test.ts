/**
 * A run cancelled on the `ToolCallStart` of a tool that answers at once (synchronously): the
 * cancel closes the turn while the call is still on the stack, and the tool's result, made
 * right after, must not be saved behind the closing messages, where it answers no call (it
 * did, and a strict chat template then refuses the conversation). Found by
 * compaction-tail-cancel.test.ts.
 */
import { firstValueFrom, takeWhile, timer } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { SessionBusyError } from '../../src/agent/session-busy-error.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { collect } from '../support/collect-events.js';
import { pageTool, pageTurns } from '../support/compaction-kit.js';
import { conversationProblems } from '../support/conversation.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';

const ws = workspaceHomePerTest();
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const stores: Record<string, () => SessionStore> = {
  memory: () => new MemorySessionStore(),
  file: () => new FileSessionStore(ws.dir, { grantKey: 'k' }),
};

describe('a run cancelled on the ToolCallStart of a tool that answers at once', () => {
  for (const [kind, made] of Object.entries(stores)) {
    it(`keeps the turn closed, its result not saved after it (${kind} store), and the next turn answers`, async () => {
      server = await FakeOpenAIServer.start({ handler: pageTurns });
      const sessions = made();
      const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [pageTool] });
      // Unsubscribes from the run right after delivering its ToolCallStart.
      await collect(agent.stream('Tell me about topic 1', { sessionId: 's' }).pipe(takeWhile((e) => e.type !== 'ToolCallStart', true)));
      // The session is free once the cancelled turn is closed: asked again until then.
      let next = await agent.call('Tell me about topic 2', { sessionId: 's' }).catch((e: unknown) => e);
      for (let i = 0; i < 500 && SessionBusyError.isInstance(next); i++) {
        await firstValueFrom(timer(10));
        next = await agent.call('Tell me about topic 2', { sessionId: 's' }).catch((e: unknown) => e);
      }
      expect(next).toMatchObject({ abnormal: false, text: 'answer 2' });
      const stored = await sessions.load('s');
      expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
      expect(stored[2]!.content).toMatch(/interrupted/);
      expect(stored[3]!.content).toMatch(/cancelled/);
      expect(conversationProblems(stored)).toEqual([]);
    });
  }
});
