/**
 * The prompt prefix may answer later (the engine reads the sessions of background tasks an
 * engine stopped before delivering, see `conversationPrefix`): the run waits for it, and a run
 * stopped before it settles gives it back (`unsaved`), so what it took is not lost.
 */
import { describe, expect, it } from 'vitest';
import type { PromptPrefix } from '../../src/agent/agent-scope.js';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { scopeOfOptions } from '../../src/agent/resolve-agent-options.js';
import type { ChatMessage } from '../../src/model/chat-message.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { createGate } from '../support/deferred.js';

describe('an asynchronous prompt prefix', () => {
  it('is given the loaded history, and its text is saved in front of the prompt once it settles', async () => {
    const model = new ScriptedModel(() => ({ text: 'ok' }));
    const sessions = new MemorySessionStore();
    const seen: (readonly ChatMessage[])[] = [];
    const scope = scopeOfOptions({ model, sessions });
    const promptPrefix = async (_: string, history: readonly ChatMessage[]): Promise<PromptPrefix> => {
      seen.push(history);
      return { text: seen.length === 1 ? '<note>later</note>' : '', unsaved: () => undefined };
    };
    const agent = ReActAgent.ofScope('main', () => ({ ...scope, promptPrefix }));
    await agent.call('one', { sessionId: 's' });
    await agent.call('two', { sessionId: 's' });
    expect(seen.map((h) => h.length)).toEqual([0, 2]);
    expect(sessions.load('s').filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['<note>later</note>\n\none', 'two']);
  });

  it('settling after the run was stopped: given back (unsaved), and nothing of it is saved', async () => {
    const model = new ScriptedModel(() => ({ text: 'ok' }));
    const sessions = new MemorySessionStore();
    const asked = createGate();
    const answer = createGate();
    let givenBack = 0;
    const scope = scopeOfOptions({ model, sessions });
    const promptPrefix = async (): Promise<PromptPrefix> => {
      asked.open();
      await answer.promise;
      return { text: '<note>taken</note>', unsaved: () => void givenBack++ };
    };
    const agent = ReActAgent.ofScope('main', () => ({ ...scope, promptPrefix }));
    const run = agent.stream('one', { sessionId: 's' }).subscribe();
    await asked.promise;
    run.unsubscribe();
    answer.open();
    await answer.promise;
    await Promise.resolve(); // the prefix's own continuation, then the run's
    await new Promise((resolve) => setImmediate(resolve));
    expect(givenBack).toBe(1);
    expect(sessions.load('s')).toEqual([]);
    expect(model.requests).toHaveLength(0);
  });
});
