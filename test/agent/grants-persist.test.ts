import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ApprovalRequest } from '../../src/permission/approval.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { collect, own } from '../support/collect-events.js';
import { homeBeside } from '../support/tool-context.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const bashOnce = () => new ScriptedModel((request) => (request.messages.at(-1)?.role === 'user' ? { toolCalls: [{ name: 'bash', args: { command: 'echo kept' } }] } : { text: 'ok' }));

describe('"always" approvals survive a restart of the session', () => {
  it('granted once with FileSessionStore, a new engine on the same store asks no more', async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'rxh-grants-')));
    const asked: ApprovalRequest[] = [];
    const first = new HarnessEngine({ model: bashOnce(), workspace: dir, homeDir: homeBeside(dir), sessions: new FileSessionStore(dir, { grantKey: 'test grant key' }), approve: (r) => (asked.push(r), { decision: 'always' }) });
    await first.call('run it', { sessionId: 'chat' });
    expect(asked).toHaveLength(1);
    // "Restart": another engine, another store object on the same folder, a handler that would reject.
    const second = new HarnessEngine({ model: bashOnce(), workspace: dir, homeDir: homeBeside(dir), sessions: new FileSessionStore(dir, { grantKey: 'test grant key' }), approve: (r) => (asked.push(r), { decision: 'reject' }) });
    const events = await collect(second.stream('run it again', { sessionId: 'chat' }));
    expect(asked).toHaveLength(1);
    expect(own(events, 'ToolCallEnd')[0]).toMatchObject({ toolName: 'bash', text: expect.stringContaining('kept') });
    // Another conversation has no such grant.
    await second.call('elsewhere', { sessionId: 'other' });
    expect(asked).toHaveLength(2);
  });

  it('a store answering grants of the wrong shape: skipped with a Warning, the good one holds', async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'rxh-grants-')));
    const store: SessionStore = {
      load: () => [],
      append: () => undefined,
      loadGrants: () => [{ toolName: 'bash', subject: 'echo kept' }, { tool: 'bash' }, null] as never,
    };
    const engine = new HarnessEngine({ model: bashOnce(), workspace: dir, homeDir: homeBeside(dir), sessions: store });
    const events = await collect(engine.stream('go', { sessionId: 's' }));
    expect(own(events, 'Warning')).toEqual([expect.objectContaining({ code: 'grant-skipped', message: expect.stringContaining('Skipped 2 stored approval(s)') })]);
    expect(own(events, 'ToolCallEnd')[0]!.error).toBeUndefined(); // allowed by the stored grant, no handler needed
  });

  it('a run without a sessionId keeps its grants nowhere', async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'rxh-grants-')));
    const saved: unknown[] = [];
    const store: SessionStore = { load: () => [], append: () => undefined, saveGrant: (_s, g) => void saved.push(g) };
    const engine = new HarnessEngine({ model: bashOnce(), workspace: dir, homeDir: homeBeside(dir), sessions: store, approve: () => ({ decision: 'always' }) });
    await engine.call('go');
    expect(saved).toEqual([]);
    await engine.call('go', { sessionId: 'kept' });
    expect(saved).toEqual([{ toolName: 'bash', subject: 'echo kept' }]);
  });
});
