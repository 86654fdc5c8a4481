import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { SessionBusyError } from '../../src/agent/session-busy-error.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { record } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { makeWorkspace } from '../support/tool-context.js';
import { toolContextPerTest } from '../support/tool-context-per-test.js';

const fresh = toolContextPerTest();

describe('FileSessionStore claims hold for every store of one folder in this process', () => {
  it('two engines on their own stores of one workspace: the second run of a session is refused while the first is going', async () => {
    const gate = createGate();
    let calls = 0;
    // Holds the first turn mid-way; a second turn reaching it too (the defect) opens the gate, so the test ends either way.
    const slow = { name: 'wait', description: 'Waits.', parameters: { type: 'object' }, execute: () => (++calls === 2 && gate.open(), gate.promise.then(() => 'waited')) };
    const model = new ScriptedModel((request) => (request.messages.at(-1)?.role === 'user' ? { toolCalls: [{ name: 'wait', args: {} }] } : { text: 'done' }));
    const one = new ReActAgent({ model, tools: [slow], sessions: new FileSessionStore(fresh.ws.dir, { home: fresh.ws.home }) });
    const two = new ReActAgent({ model, tools: [slow], sessions: new FileSessionStore(fresh.ws.dir, { home: fresh.ws.home }) });
    const first = record(one.stream('one', { sessionId: 's' }));
    const second = record(two.stream('two', { sessionId: 's' }));
    await second.done;
    gate.open();
    await first.done;
    expect(second.error).toBeInstanceOf(SessionBusyError);
    expect(second.events).toEqual([]);
    // The conversation holds one whole turn, in order, and is free again for either engine.
    expect((await new FileSessionStore(fresh.ws.dir, { home: fresh.ws.home }).load('s')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(await two.call('three', { sessionId: 's' })).toMatchObject({ abnormal: false });
  });

  it('stores of different folders never refuse each other', async () => {
    const other = await makeWorkspace();
    try {
      const a = await new FileSessionStore(fresh.ws.dir, { home: fresh.ws.home }).claim('s', 'run_a');
      const b = await new FileSessionStore(other.dir, { home: other.home }).claim('s', 'run_b');
      expect([a.granted, b.granted]).toEqual([true, true]);
    } finally {
      await other.cleanup();
    }
  });

  it('a released claim frees the session for the other store', async () => {
    const a = await new FileSessionStore(fresh.ws.dir, { home: fresh.ws.home }).claim('s', 'run_a');
    const b = new FileSessionStore(fresh.ws.dir, { home: fresh.ws.home });
    expect(await b.claim('s', 'run_b')).toEqual({ granted: false, owner: 'run_a' });
    if (a.granted) a.release();
    expect((await b.claim('s', 'run_b')).granted).toBe(true);
  });
});
