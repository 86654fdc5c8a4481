/**
 * Prompts a model server can cache (issue 28.2). llama.cpp, vLLM and the OpenAI API reuse
 * their KV / prompt cache only for a request that starts with the same bytes as an earlier
 * one. So every step of a run and every turn of a session must send the earlier request's
 * tools and messages unchanged, byte for byte, and only append: nothing that changes per
 * request (a time, an id, a reordered tool) may sit ahead of the history.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testAgent, type Turn } from '../support/agent-turns.js';
import { collect } from '../support/collect-events.js';
import { startDelegationFixture, turnOf, type DelegationFixture } from '../support/delegation-fixture.js';
import { multitaskReply, taskReply } from '../support/delegation-script.js';
import type { FakeReply, RecordedRequest } from '../support/fake-openai-server.js';

let f: DelegationFixture;

/** A route that reads a file first, then plays `then`, then answers with what it saw. */
function readsFirst(then: readonly FakeReply[]): (turn: Turn) => FakeReply {
  return (turn) => {
    if (turn.step === 1) return { toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] };
    return then[turn.step - 2] ?? { text: `done after ${turn.toolResults.length} result(s)` };
  };
}

beforeEach(async () => {
  f = await startDelegationFixture({
    main: readsFirst([
      taskReply('alpha', 'look around', 'Look around'),
      multitaskReply([
        [1, 'alpha', 'first', 'First'],
        [2, 'beta', 'second', 'Second'],
      ]),
    ]),
    alpha: readsFirst([]),
    beta: readsFirst([]),
  });
  await writeFile(join(f.workspace.dir, 'notes.txt'), 'some notes\n');
});
afterEach(() => f.close());

/** The bytes a server templates into its prompt: each message and the tool list, as sent. */
function prefixParts(request: RecordedRequest): { tools: string; messages: string[] } {
  return {
    tools: JSON.stringify(request.body.tools ?? []),
    messages: (request.body.messages ?? []).map((m) => JSON.stringify(m)),
  };
}

/** Asserts each request sends the one before it unchanged and only appends. */
function expectPrefixExtensions(requests: readonly RecordedRequest[], label: string): void {
  for (let i = 1; i < requests.length; i += 1) {
    const before = prefixParts(requests[i - 1]!);
    const after = prefixParts(requests[i]!);
    expect(after.tools, `${label}: request ${i} offers the same tools, same order, same schemas`).toBe(before.tools);
    expect(after.messages.length, `${label}: request ${i} appends`).toBeGreaterThan(before.messages.length);
    expect(after.messages.slice(0, before.messages.length), `${label}: request ${i} keeps every earlier message byte for byte`).toEqual(
      before.messages,
    );
  }
}

/** Requests grouped by run: a child's run is its own session, so group by its first user message. */
function byAgentAndPrompt(requests: readonly RecordedRequest[]): Map<string, RecordedRequest[]> {
  const groups = new Map<string, RecordedRequest[]>();
  for (const request of requests) {
    const turn = turnOf(request);
    const firstUser = (request.body.messages ?? []).find((m) => m.role === 'user')?.content;
    const key = `${turn.agent}: ${String(firstUser)}`;
    groups.set(key, [...(groups.get(key) ?? []), request]);
  }
  return groups;
}

describe('prompts a model server can cache', () => {
  it('every step of the main agent and of each child extends the request before it, byte for byte', async () => {
    const engine = f.engine({}, [testAgent('alpha'), testAgent('beta')]);
    await collect(engine.stream('survey the notes', { sessionId: 'ses_cache' }));
    const groups = byAgentAndPrompt(f.server.requests);
    // main: read, task, multitask, answer; three child runs of two steps each.
    expect([...groups.values()].map((g) => g.length).sort()).toEqual([2, 2, 2, 4]);
    for (const [label, requests] of groups) expectPrefixExtensions(requests, label);
  });

  it('the next turn of a session starts with the whole previous turn unchanged', async () => {
    const engine = f.engine({}, [testAgent('alpha'), testAgent('beta')]);
    await collect(engine.stream('survey the notes', { sessionId: 'ses_cache' }));
    const firstTurn = f.requestsOf('main').length;
    f.route({ main: (turn) => (turn.step === 1 ? { toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] } : { text: 'again' }) });
    await collect(engine.stream('and once more', { sessionId: 'ses_cache' }));
    const main = f.requestsOf('main');
    expect(main.length).toBe(firstTurn + 2);
    expectPrefixExtensions(main, 'main across turns');
  });

  it('two sessions of one agent share their opening bytes (system prompt and tools), so one cache serves both', async () => {
    const engine = f.engine({}, [testAgent('alpha'), testAgent('beta')]);
    f.route({ main: () => ({ text: 'hi' }) });
    await collect(engine.stream('one', { sessionId: 'ses_one' }));
    await collect(engine.stream('two', { sessionId: 'ses_two' }));
    const [a, b] = f.requestsOf('main').map(prefixParts);
    expect(b!.tools).toBe(a!.tools);
    expect(b!.messages[0]).toBe(a!.messages[0]);
  });
});
