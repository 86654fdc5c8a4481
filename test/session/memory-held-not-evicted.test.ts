import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { Tool } from '../../src/tools/tool.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';

// A session a run holds is not evicted past the bounds: the run would go on writing to an
// empty session, and the conversation would lose its question and earlier turns.
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const hi = [{ role: 'user' as const, content: 'hi' }];

describe('MemorySessionStore bounds and the sessions runs hold', () => {
  it('spares a held session past maxSessions, and drops it once given up', () => {
    const store = new MemorySessionStore({ maxSessions: 2 });
    store.append('a', hi);
    const claim = store.claim('a', 'run_1');
    store.append('b', hi);
    store.append('c', hi);
    // The least recently used that no run holds goes instead.
    expect(store.load('a')).toEqual(hi);
    expect(store.load('b')).toEqual([]);
    store.append('d', hi);
    expect(store.load('a')).toEqual(hi);
    if (claim.granted) claim.release();
    expect(store.load('c')).toEqual([]);
    expect(store.size).toBe(2);
  });

  it('may exceed maxSessions while runs hold sessions, and keeps to it again once they give them up', () => {
    const store = new MemorySessionStore({ maxSessions: 1 });
    store.append('a', hi);
    const claim = store.claim('a', 'run_1');
    store.append('b', hi);
    expect(store.size).toBe(2);
    if (claim.granted) claim.release();
    expect(store.size).toBe(1);
    expect(store.load('a')).toEqual([]);
    expect(store.load('b')).toEqual(hi);
  });

  it('spares a held task session past maxTaskSessions', () => {
    const store = new MemorySessionStore({ maxTaskSessions: 1 });
    const task = (taskId: string) => ({ taskId, agentName: 'beta', description: 'look', ownerSessionId: 'conv' });
    store.saveTaskInfo(task('t1'));
    const claim = store.claim('t1', 'run_1');
    store.saveTaskInfo(task('t2'));
    expect(store.loadTaskInfo('t1')).toMatchObject({ taskId: 't1' });
    if (claim.granted) claim.release();
    expect(store.loadTaskInfo('t1')).toBeUndefined();
    expect(store.loadTaskInfo('t2')).toMatchObject({ taskId: 't2' });
  });

  it('a run waiting on a long tool call keeps its conversation while others write', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calling!: () => void;
    const called = new Promise<void>((r) => (calling = r));
    const slow: Tool = {
      name: 'slow',
      description: 'slow',
      parameters: { type: 'object' },
      execute: async () => {
        calling();
        await gate;
        return 'slow result';
      },
    };
    server = await FakeOpenAIServer.start({
      handler: (r) => {
        const last = r.body.messages!.at(-1)!;
        if (last.role === 'tool') return { text: 'done with the slow job' };
        if (String(last.content).includes('slow job')) return { toolCalls: [{ name: 'slow', arguments: {} }] };
        return { text: 'plain answer' };
      },
    });
    const sessions = new MemorySessionStore({ maxSessions: 2 });
    const agent = new ReActAgent({ model: openAIModelFor(server), sessions, tools: [slow] });
    await agent.call('Remember: my name is Ada.', { sessionId: 'A' });
    const running = agent.call('Please run the slow job', { sessionId: 'A' });
    await called;
    await agent.call('hi', { sessionId: 'B' });
    await agent.call('hi', { sessionId: 'C' });
    release();
    await running;
    const kept = sessions.load('A').map((m) => m.content);
    expect(kept).toEqual(['Remember: my name is Ada.', 'plain answer', 'Please run the slow job', null, 'slow result', 'done with the slow job']);
  });
});
