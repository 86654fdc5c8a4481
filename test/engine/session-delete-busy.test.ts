import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../../src/agent/session-busy-error.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/permission/approval.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { record } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

const bashModel = (): ScriptedModel =>
  new ScriptedModel((request) => (request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ name: 'bash', args: { command: 'echo hi' } }] }));

describe.each([
  ['MemorySessionStore', () => new MemorySessionStore()],
  ['FileSessionStore', () => new FileSessionStore(fresh.ws.dir, { grantKey: 'test grant key' })],
] as const)('engine.sessions.delete(id) of a conversation a run is writing (%s)', (_, makeStore: () => SessionStore) => {
  it('is refused with SessionBusyError: the run cannot bring back part of it, nor its "always" approvals', async () => {
    const asked: ApprovalRequest[] = [];
    const answer = createGate();
    let called!: () => void;
    const waiting = new Promise<void>((resolve) => (called = resolve));
    const approve = async (request: ApprovalRequest): Promise<ApprovalDecision> => {
      asked.push(request);
      if (asked.length > 1) return { decision: 'reject' };
      called();
      await answer.promise;
      return { decision: 'always' };
    };
    const engine = new HarnessEngine({ model: bashModel(), workspace: fresh.ws.dir, homeDir: fresh.ws.home, sessions: makeStore(), approve });
    const turn = record(engine.stream('first', { sessionId: 'notes' }));
    await waiting; // the turn waits for its approval, its prompt saved

    await expect(Promise.resolve().then(() => engine.sessions.delete!('notes'))).rejects.toBeInstanceOf(SessionBusyError);
    answer.open();
    await turn.done;
    expect((await engine.sessions.load('notes')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

    // Once the turn has ended, the conversation is deleted whole: a new one of that id starts empty and is asked again.
    await engine.sessions.delete!('notes');
    expect(await engine.sessions.load('notes')).toEqual([]);
    await engine.call('a new conversation', { sessionId: 'notes' });
    expect(asked).toHaveLength(2);
    await engine.close();
  });
});

describe('engine.sessions.delete(id) with a store whose claims answer later (a lease)', () => {
  const leasing = (holder: string | undefined) => {
    const deleted: string[] = [];
    const released: string[] = [];
    const store: SessionStore = {
      load: () => [],
      append: () => undefined,
      delete: (id) => void deleted.push(id),
      claim: async (id, owner) => (holder === undefined ? { granted: true, release: () => void released.push(`${id} ${owner}`) } : { granted: false, owner: holder }),
    };
    return { store, deleted, released };
  };

  it('deletes once the store granted the claim, then gives it back', async () => {
    const { store, deleted, released } = leasing(undefined);
    const engine = new HarnessEngine({ model: new ScriptedModel([]), workspace: fresh.ws.dir, homeDir: fresh.ws.home, sessions: store });
    await engine.sessions.delete!('notes');
    expect(deleted).toEqual(['notes']);
    expect(released).toEqual([expect.stringMatching(/^notes delete_/)]);
    await engine.close();
  });

  it('a claim another run holds (in another process) refuses the delete with SessionBusyError naming it', async () => {
    const { store, deleted } = leasing('run_elsewhere');
    const engine = new HarnessEngine({ model: new ScriptedModel([]), workspace: fresh.ws.dir, homeDir: fresh.ws.home, sessions: store });
    await expect(engine.sessions.delete!('notes')).rejects.toMatchObject({ name: 'SessionBusyError', activeRunId: 'run_elsewhere' });
    expect(deleted).toEqual([]);
    await engine.close();
  });
});
