import { describe, expect, it, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ApprovalHandler } from '../../src/permission/approval.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { defineAgent } from '../../src/subagent/define-agent.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

// Deleting a conversation through the engine forgets it whole (docs/sessions.md, "Deleting a
// conversation"): the store's messages, archive and grants, and the engine's memory of it.

const fresh = toolContextPerTest();

/** Calls bash on every prompt, then answers once it read the result. */
const bashModel = (): ScriptedModel =>
  new ScriptedModel((request) => (request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ name: 'bash', args: { command: 'echo hi' } }] }));

describe('engine.sessions.delete(id)', () => {
  it('forgets the "always" approvals: a new conversation reusing the id is asked again', async () => {
    const approve = vi.fn<ApprovalHandler>(() => ({ decision: 'always' }));
    const engine = new HarnessEngine({ model: bashModel(), workspace: fresh.ws.dir, homeDir: fresh.ws.home, approve });
    await engine.call('first', { sessionId: 'notes' });
    await engine.call('same conversation', { sessionId: 'notes' });
    expect(approve).toHaveBeenCalledTimes(1); // "always" held within the conversation
    await engine.sessions.delete!('notes');
    expect(await engine.sessions.load('notes')).toEqual([]);
    await engine.call('a new conversation', { sessionId: 'notes' });
    expect(approve).toHaveBeenCalledTimes(2);
    await engine.close();
  });

  it("forgets undelivered background results: a new conversation reusing the id does not get the deleted one's", async () => {
    let first = true;
    const model = new ScriptedModel((request) => {
      if (String(request.messages[0]?.content).includes('You help.')) return { text: 'RESULT OF THE OLD CONVERSATION' };
      if (request.messages.at(-1)?.role === 'tool') return { text: 'started' };
      if (!first) return { text: 'ok' };
      first = false;
      return { toolCalls: [{ name: 'task', args: { agent_name: 'helper', prompt: 'work', description: 'bg', background: true } }] };
    });
    const engine = new HarnessEngine({ model, workspace: fresh.ws.dir, homeDir: fresh.ws.home });
    engine.agents.add(defineAgent({ name: 'helper', description: 'Helps.', systemPrompt: 'You help.' }));
    await engine.call('go', { sessionId: 'notes' });
    const [task] = engine.tasks.list();
    await engine.tasks.whenSettled(task!.taskId);
    await engine.sessions.delete!('notes');
    await engine.call('hello, new conversation', { sessionId: 'notes' });
    const prompts = model.requests.at(-1)!.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
    expect(prompts).toEqual(['hello, new conversation']);
    expect(engine.tasks.get(task!.taskId)).toMatchObject({ state: 'done' }); // still readable there
    await engine.close();
  });

  it('is the store itself otherwise: its methods, present or absent, and what it holds', async () => {
    const store = new MemorySessionStore();
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'ok' }]), workspace: fresh.ws.dir, homeDir: fresh.ws.home, sessions: store });
    await engine.call('hi', { sessionId: 's1' });
    expect(await store.load('s1')).toHaveLength(2);
    expect((await engine.sessions.list!()).map((s) => s.sessionId)).toEqual(['s1']);
    expect(engine.sessions).toBeInstanceOf(MemorySessionStore);
    await engine.close();

    // A store without delete (or list) keeps lacking them: the HTTP routes answer 404 for those.
    const bare: SessionStore = { load: () => [], append: () => undefined };
    const plain = new HarnessEngine({ model: new ScriptedModel([]), workspace: fresh.ws.dir, homeDir: fresh.ws.home, sessions: bare });
    expect(plain.sessions.delete).toBeUndefined();
    expect(plain.sessions.list).toBeUndefined();
    await plain.close();
  });

  it('keeps what the store still holds when its delete fails: the conversation and its stored grants read back', async () => {
    const approve = vi.fn<ApprovalHandler>(() => ({ decision: 'always' }));
    const store = new MemorySessionStore();
    const failing = Object.assign(store, { delete: () => Promise.reject(new Error('disk full')) });
    const engine = new HarnessEngine({ model: bashModel(), workspace: fresh.ws.dir, homeDir: fresh.ws.home, approve, sessions: failing });
    await engine.call('first', { sessionId: 'notes' });
    await expect(engine.sessions.delete!('notes')).rejects.toThrow('disk full');
    await engine.call('same conversation', { sessionId: 'notes' });
    expect(approve).toHaveBeenCalledTimes(1);
    await engine.close();
  });
});
