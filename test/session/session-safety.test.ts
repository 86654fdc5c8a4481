import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { SessionBusyError } from '../../src/agent/session-busy-error.js';
import type { AgentEvent } from '../../src/events/agent-event.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { UNANSWERED_TURN } from '../../src/session/repair-history.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { collect, record } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { settled } from '../support/lifecycle-script.js';
import { offlineEnginePerTest } from '../support/offline-engine.js';
import { scriptedSteps } from '../support/scripted-routes.js';

/** A store whose `load` answers `stored`, whatever it is. */
function storeAnswering(stored: unknown): SessionStore & { appended: unknown[] } {
  const appended: unknown[] = [];
  return { appended, load: () => stored as never, append: (_id, messages) => void appended.push(...messages) };
}

describe('what a session store returns is checked, never trusted', () => {
  it('skips entries of the wrong shape with one Warning for all, and sends only the good ones', async () => {
    const stored = [
      null,
      { role: 'assistant', tool_calls: 'ab' },
      [null],
      { role: 'user', content: 'kept' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'f' } }] },
      { role: 'tool', tool_call_id: 'x', content: 'answers a skipped call' },
      { role: 'wizard', content: 'hi' },
    ];
    const model = new ScriptedModel([{ text: 'fine' }]);
    const events = await collect(new ReActAgent({ model, sessions: storeAnswering(stored) }).stream('go', { sessionId: 's' }));
    const warnings = events.filter((e) => e.type === 'Warning');
    expect(warnings).toHaveLength(2);
    expect(warnings.map((w) => w.type === 'Warning' && w.code)).toEqual(['session-entry-skipped', 'session-repaired']);
    expect(warnings[0]).toMatchObject({ message: expect.stringContaining('Skipped 5 stored messages of session "s": entry 1 is null, not a message object; entry 2 (assistant) has tool_calls "ab", not a list; entry 3 is a list, not a message object; and 2 more.') });
    // The orphaned tool answer is dropped too (a server would refuse it), and the unanswered
    // "kept" gets an answer before the prompt (a strict template refuses two user turns in a row).
    expect(warnings[1]).toMatchObject({ message: expect.stringMatching(/dropped 1 tool result\(s\) that answered no call; closed 1 turn\(s\) that had no answer/) });
    expect(model.requests[0]!.messages).toEqual([{ role: 'user', content: 'kept' }, { role: 'assistant', content: UNANSWERED_TURN }, { role: 'user', content: 'go' }]);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'fine' });
  });

  it('a store answer that is not a list ends the run abnormally, saying so', async () => {
    for (const stored of ['garbage', { role: 'user' }, null, 42]) {
      const result = await new ReActAgent({ model: new ScriptedModel([{ text: 'x' }]), sessions: storeAnswering(stored) }).call('go', { sessionId: 's' });
      expect(result.abnormal).toBe(true);
      expect(result.error).toMatch(/^the session store returned .* for session "s" instead of a list of messages$/);
    }
  });

  it('a store that throws synchronously, or rejects, ends the run abnormally', async () => {
    const throwing: SessionStore = { load: () => { throw new Error('disk on fire'); }, append: () => undefined };
    const rejecting: SessionStore = { load: () => Promise.reject(new Error('network gone')), append: () => undefined };
    const model = (): ScriptedModel => new ScriptedModel([{ text: 'x' }]);
    expect(await new ReActAgent({ model: model(), sessions: throwing }).call('go', { sessionId: 's' })).toMatchObject({ abnormal: true, error: 'disk on fire' });
    expect(await new ReActAgent({ model: model(), sessions: rejecting }).call('go', { sessionId: 's' })).toMatchObject({ abnormal: true, error: 'network gone' });
  });

  it('property: whatever JSON a store returns, the run ends with exactly one RunEnd as its last event', async () => {
    const entry = fc.oneof(
      fc.jsonValue(),
      fc.record({ role: fc.constantFrom('user', 'assistant', 'tool', 'system'), content: fc.jsonValue(), tool_calls: fc.jsonValue(), tool_call_id: fc.jsonValue() }, { requiredKeys: ['role'] }),
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.array(entry, { maxLength: 8 }), fc.jsonValue()), async (stored) => {
        const model = new ScriptedModel(() => ({ text: 'ok' }));
        const events = await lastValueFrom(new ReActAgent({ model, sessions: storeAnswering(stored) }).stream('go', { sessionId: 's' }).pipe(toArray()));
        expect(events.filter((e) => e.type === 'RunEnd')).toHaveLength(1);
        expect(events.at(-1)?.type).toBe('RunEnd');
        // What reached the model is well-formed: every tool message answers a call just before it.
        for (const request of model.requests) {
          for (const m of request.messages) expect(['system', 'user', 'assistant', 'tool']).toContain(m.role);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('a run without a sessionId is ephemeral', () => {
  const offline = offlineEnginePerTest();

  it('leaves nothing in the store; a run with one is kept', async () => {
    const o = await offline({ main: () => ({ text: 'hi' }) }, []);
    const store = o.engine.sessions as MemorySessionStore;
    for (let i = 0; i < 100; i++) await o.engine.call(`hello ${i}`);
    expect(store.size).toBe(0);
    const kept = await o.engine.call('remember', { sessionId: 'chat' });
    expect(kept.sessionId).toBe('chat');
    expect(store.size).toBe(1);
    expect(store.load('chat')).toHaveLength(2);
  });

  it('engine.sessions.delete forgets a conversation: the next run starts fresh', async () => {
    const o = await offline({ main: () => ({ text: 'hi' }) }, []);
    await o.engine.call('one', { sessionId: 'c' });
    await o.engine.call('two', { sessionId: 'c' });
    expect(o.model.requests.at(-1)!.messages.filter((m) => m.role === 'user')).toHaveLength(2);
    await o.engine.sessions.delete?.('c');
    await o.engine.call('three', { sessionId: 'c' });
    expect(o.model.requests.at(-1)!.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['three']);
  });

  it('a background task of an ephemeral run keeps its result in the tracker, not in a delivery queue nobody reads', async () => {
    const o = await offline(
      {
        main: scriptedSteps({ toolCalls: [{ name: 'task', args: { agent_name: 'alpha', prompt: 'p', description: 'bg', background: true } }] }),
        alpha: () => ({ text: 'late result', delayMs: 5 }),
      },
      [testAgent('alpha')],
    );
    const result = await o.engine.call('start one');
    const [task] = o.engine.tasks.list();
    const info = await settled(o.engine.tasks, task!.taskId);
    expect(info).toMatchObject({ state: 'done', result: 'late result' });
    expect(o.engine.tasks.takeUndelivered(result.sessionId)).toEqual([]);
  });
});

describe('MemorySessionStore is bounded', () => {
  it('drops the least recently used session beyond maxSessions', () => {
    const store = new MemorySessionStore({ maxSessions: 3 });
    for (const id of ['a', 'b', 'c']) store.append(id, [{ role: 'user', content: id }]);
    store.load('a'); // a is now the most recently used
    store.append('d', [{ role: 'user', content: 'd' }]);
    expect(store.size).toBe(3);
    expect(store.load('b')).toEqual([]);
    expect(store.load('a')).toHaveLength(1);
  });

  it('10,000 sessions through a store of 100 keep it at 100', () => {
    const store = new MemorySessionStore({ maxSessions: 100 });
    for (let i = 0; i < 10_000; i++) store.append(`s${i}`, [{ role: 'user', content: 'x' }]);
    expect(store.size).toBe(100);
    expect(store.load('s9999')).toHaveLength(1);
  });

  it('rejects a bound that is not a whole number', () => {
    expect(() => new MemorySessionStore({ maxSessions: -1 })).toThrow('MemorySessionStore: maxSessions must be an integer >= 0, got -1');
  });
});

describe('two runs on one session', () => {
  it('the second is refused with SessionBusyError before it starts; the first is untouched', async () => {
    const gate = createGate();
    const store = new MemorySessionStore();
    const slow = { name: 'wait', description: 'Waits.', parameters: { type: 'object' }, execute: () => gate.promise.then(() => 'waited') };
    const model = new ScriptedModel((request) => (request.messages.at(-1)?.role === 'user' ? { toolCalls: [{ name: 'wait', args: {} }] } : { text: 'done' }));
    const agent = new ReActAgent({ model, tools: [slow], sessions: store });
    const first = record(agent.stream('one', { sessionId: 's' }));
    const second = record(agent.stream('two', { sessionId: 's' }));
    await second.done;
    expect(second.error).toBeInstanceOf(SessionBusyError);
    expect((second.error as SessionBusyError).message).toMatch(/^session "s" is busy: run run_[0-9a-f-]+ has not ended yet\./);
    expect(second.events).toEqual([]);
    await expect(agent.call('three', { sessionId: 's' })).rejects.toThrow(SessionBusyError);
    gate.open();
    await first.done;
    expect(first.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
    // The conversation is in order: prompt, call, its result, answer.
    expect(store.load('s').map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // Free again once the first ended.
    expect(await agent.call('four', { sessionId: 's' })).toMatchObject({ abnormal: false });
  });

  it('a run unsubscribed part-way, or failed, frees its session', async () => {
    const model = new ScriptedModel([{ text: 'never', delayMs: 60_000 }, { error: 'boom' }, { text: 'ok' }]);
    const agent = new ReActAgent({ model, sessions: new MemorySessionStore() });
    const run = agent.stream('one', { sessionId: 's' }).subscribe();
    run.unsubscribe();
    expect(await agent.call('two', { sessionId: 's' })).toMatchObject({ abnormal: true });
    expect(await agent.call('three', { sessionId: 's' })).toMatchObject({ abnormal: false, text: 'ok' });
  });

  it('runs without a sessionId never collide', async () => {
    const agent = new ReActAgent({ model: new ScriptedModel(() => ({ text: 'x', delayMs: 1 })) });
    const results = await Promise.all(Array.from({ length: 20 }, () => agent.call('go')));
    expect(results.every((r) => !r.abnormal)).toBe(true);
  });
});

describe('a tool cannot break the one-terminal-event rule', () => {
  it('an unwrapped RunEnd or RunStart it emits is dropped with a Warning; a Plan passes', async () => {
    const sneaky = {
      name: 'sneaky',
      description: 'Emits what it should not.',
      parameters: { type: 'object' },
      execute: (_args: Record<string, unknown>, context: { emit(e: AgentEvent): void; runId: string; agentName: string }) => {
        const base = { runId: context.runId, agentName: context.agentName };
        context.emit({ type: 'RunEnd', ...base, text: 'fake', abnormal: false, metrics: { promptTokens: 0, completionTokens: 0, totalTokens: 0, durationMs: 0, tasks: 0 }, steps: 1 });
        context.emit({ type: 'RunStart', ...base, sessionId: 'x', prompt: 'fake' });
        context.emit(null as unknown as AgentEvent);
        context.emit({ type: 'Plan', ...base, todos: [] });
        return 'ok';
      },
    };
    const model = new ScriptedModel([{ toolCalls: [{ name: 'sneaky', args: {} }] }, { text: 'real end' }]);
    const events = await collect(new ReActAgent({ model, tools: [sneaky] }).stream('go'));
    expect(events.filter((e) => e.type === 'RunEnd')).toEqual([expect.objectContaining({ text: 'real end' })]);
    expect(events.filter((e) => e.type === 'RunStart')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'Plan')).toHaveLength(1);
    const warnings = events.filter((e) => e.type === 'Warning');
    expect(warnings.map((w) => (w.type === 'Warning' ? w.message : ''))).toEqual([
      'The sneaky tool emitted an unwrapped RunEnd, which only the run itself emits; it was dropped.',
      'The sneaky tool emitted an unwrapped RunStart, which only the run itself emits; it was dropped.',
      'The sneaky tool emitted something that is not an event; it was dropped.',
    ]);
  });

  it('a tool returning something that is not text fails that call with a clear error', async () => {
    const odd = { name: 'odd', description: 'Odd.', parameters: { type: 'object' }, execute: () => Promise.resolve({ nottext: 1 } as never) };
    const model = new ScriptedModel([{ toolCalls: [{ name: 'odd', args: {} }] }, { text: 'ok' }]);
    const events = await collect(new ReActAgent({ model, tools: [odd] }).stream('go'));
    expect(events.find((e) => e.type === 'ToolCallEnd')).toMatchObject({ error: 'The odd tool failed: it returned an object without a string `text` instead of text or { text, error? }' });
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  });

  it('a custom tool whose subject() throws fails that call only', async () => {
    const bad = { name: 'bad', description: 'Bad.', parameters: { type: 'object' }, subject: () => { throw new Error('no subject'); }, execute: () => 'never' };
    const model = new ScriptedModel([{ toolCalls: [{ name: 'bad', args: {} }] }, { text: 'ok' }]);
    const events = await collect(new ReActAgent({ model, tools: [bad] }).stream('go'));
    expect(events.find((e) => e.type === 'ToolCallEnd')).toMatchObject({ error: 'The bad tool failed: no subject' });
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ok' });
  });

  it('a custom tool whose paths() throws fails that call only, and never runs', async () => {
    let ran = 0;
    const bad = { name: 'bad', description: 'Bad.', parameters: { type: 'object' }, paths: () => { throw new Error('no paths'); }, execute: () => (ran++, 'ran') };
    const model = new ScriptedModel([{ toolCalls: [{ name: 'bad', args: {} }, { name: 'bad', args: { again: true } }] }, { text: 'ok' }]);
    const events = await collect(new ReActAgent({ model, tools: [bad] }).stream('go'));
    expect(events.filter((e) => e.type === 'ToolCallEnd').map((e) => (e as { error?: string }).error)).toEqual(['The bad tool failed: no paths', 'The bad tool failed: no paths']);
    expect(ran).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'ok' });
  });
});
