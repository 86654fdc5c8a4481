/**
 * A conversation's "always" approvals are what its store keeps, read again at each run's
 * start: an engine sharing the store with another sees the other's delete (asked again) and
 * the other's grants (not asked), never a copy of its own from an earlier run.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalGrants } from '../../src/agent/approval-grants.js';
import type { GrantStore } from '../../src/agent/grant-entries.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/permission/approval.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { collect, own } from '../support/collect-events.js';
import { homeBeside } from '../support/tool-context.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Calls `bash` once per prompt, then answers. */
const bashOnce = () => new ScriptedModel((request) => (request.messages.at(-1)?.role === 'user' ? { toolCalls: [{ name: 'bash', args: { command: 'echo kept' } }] } : { text: 'ok' }));

/** Two engines on one store, as two processes on one Redis or one folder would be. */
async function twoEngines(answerA: () => ApprovalDecision['decision'], answerB: () => ApprovalDecision['decision']) {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'rxh-grants-truth-')));
  const store = new MemorySessionStore();
  const asked = { a: [] as ApprovalRequest[], b: [] as ApprovalRequest[] };
  const engine = (name: 'a' | 'b', answer: () => ApprovalDecision['decision']) =>
    new HarnessEngine({ model: bashOnce(), workspace: dir!, homeDir: homeBeside(dir!), sessions: store, approve: (r) => (asked[name].push(r), { decision: answer() }) });
  return { a: engine('a', answerA), b: engine('b', answerB), asked };
}

describe('"always" approvals: the store is the truth at every run start', () => {
  it('a conversation deleted through another engine: a new conversation of the id is asked again here', async () => {
    let answer: ApprovalDecision['decision'] = 'always';
    const { a, b, asked } = await twoEngines(() => answer, () => 'reject');
    await a.call('first', { sessionId: 'conv' });
    await a.call('same conversation', { sessionId: 'conv' });
    expect(asked.a).toHaveLength(1); // the grant holds across runs here
    await b.sessions.delete!('conv');
    answer = 'reject';
    const events = await collect(a.stream('a new conversation', { sessionId: 'conv' }));
    expect(asked.a).toHaveLength(2);
    expect(own(events, 'ToolCallEnd')[0]!.error).toContain('rejected');
    await Promise.all([a.close(), b.close()]);
  });

  it('an "always" another engine gave the conversation holds here at its next run', async () => {
    const { a, b, asked } = await twoEngines(() => 'reject', () => 'always');
    await a.call('first, rejected', { sessionId: 'conv' });
    await b.call('granted there', { sessionId: 'conv' });
    const events = await collect(a.stream('back here', { sessionId: 'conv' }));
    expect(asked.a).toHaveLength(1);
    expect(asked.b).toHaveLength(1);
    expect(own(events, 'ToolCallEnd')[0]).toMatchObject({ toolName: 'bash', text: expect.stringContaining('kept') });
    await Promise.all([a.close(), b.close()]);
  });

  it('a read forgets what the store no longer lists, and keeps what was granted while it read', async () => {
    const shared = new MemorySessionStore();
    let hold: Promise<void> = Promise.resolve();
    // Answers what the store held when asked, once `hold` resolves: a slow read.
    const store: GrantStore = {
      loadGrants: async (id) => {
        const listed = shared.loadGrants(id);
        await hold;
        return listed;
      },
      saveGrant: (id, grant) => shared.saveGrant(id, grant),
    };
    const grants = new ApprovalGrants();
    await grants.open('s', store);
    grants.grant('s', 'bash', 'npm test');
    await grants.open('s', store); // the next run's read lists it: a store that keeps grants
    shared.delete('s'); // by another process
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    const reading = grants.open('s', store);
    grants.grant('s', 'bash', 'npm run build'); // saved after the read was asked
    release();
    await reading;
    expect(grants.has('s', 'bash', 'npm test')).toBe(false);
    expect(grants.has('s', 'bash', 'npm run build')).toBe(true);
    expect(shared.loadGrants('s')).toEqual([{ toolName: 'bash', subject: 'npm run build' }]);
  });
});
