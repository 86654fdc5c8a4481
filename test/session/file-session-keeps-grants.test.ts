/**
 * A `FileSessionStore` with a usable key keeps grants (`keepsGrants`): what one store saves,
 * every store on the folder lists, so each run takes its conversation's grants from the
 * folder alone. Before it said so, an engine counted it as keeping grants only once it had
 * listed one: an engine whose first "always" failed to save (a model's command had planted a
 * FIFO where the grants file goes) held that grant in memory past a delete of the conversation
 * through another engine on the folder, and the new conversation of the id ran the call unasked.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/permission/approval.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { collect, own } from '../support/collect-events.js';
import { workspaceHomePerTest } from '../support/workspace-home-per-test.js';
import { plantFifo, promptly, releaseFifos } from './planted-fifo-kit.js';

const ws = workspaceHomePerTest();
afterEach(async () => {
  vi.restoreAllMocks();
  await releaseFifos();
});

const GRANT = { toolName: 'bash', subject: 'echo kept' } as const;
/** Calls `bash` once per prompt, then answers. */
const bashOnce = () => new ScriptedModel((request) => (request.messages.at(-1)?.role === 'user' ? { toolCalls: [{ name: 'bash', args: { command: 'echo kept' } }] } : { text: 'ok' }));

describe('FileSessionStore keeps grants: the folder is the truth for every engine on it', () => {
  it('lists what another store on the folder saved, and says it keeps grants once its key is usable', async () => {
    const store = new FileSessionStore(ws.dir, { home: ws.home });
    expect(store.keepsGrants).toBe(false); // the key file is not read yet
    await store.saveGrant('conv', GRANT);
    expect(store.keepsGrants).toBe(true);
    expect(await new FileSessionStore(ws.dir, { home: ws.home }).loadGrants('conv')).toEqual([GRANT]);
    expect(new FileSessionStore(ws.dir, { grantKey: 'k' }).keepsGrants).toBe(true);
  });

  it('without a usable key it does not say so (its grants hold in memory)', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const store = new FileSessionStore(ws.dir, { home: ws.dir }); // the key would lie in the workspace: refused
    await store.saveGrant('conv', GRANT);
    expect(store.keepsGrants).not.toBe(true);
  });

  it("an engine's \"always\" that failed to save is not used by the conversation made anew after another engine deleted it", async () => {
    const grantsFile = join(ws.dir, '.rxharness', 'sessions', 'conv.grants.jsonl');
    const asked: ApprovalRequest[] = [];
    let answer: ApprovalDecision['decision'] = 'always';
    const b = new HarnessEngine({
      model: bashOnce(),
      workspace: ws.dir,
      homeDir: ws.home,
      sessions: new FileSessionStore(ws.dir, { home: ws.home }),
      approve: async (r) => {
        asked.push(r);
        // As a model's earlier command could have: the grant's save now fails.
        if (asked.length === 1) await plantFifo(grantsFile);
        return { decision: answer };
      },
    });
    const a = new HarnessEngine({ model: bashOnce(), workspace: ws.dir, homeDir: ws.home, sessions: new FileSessionStore(ws.dir, { home: ws.home }), approve: () => ({ decision: 'reject' }) });
    await promptly(b.call('first', { sessionId: 'conv' }), 'the first run');
    expect(asked).toHaveLength(1);
    await promptly(Promise.resolve(a.sessions.delete!('conv')), 'the delete through the other engine'); // the FIFO goes with its files
    answer = 'reject';
    const events = await promptly(collect(b.stream('a new conversation of the id', { sessionId: 'conv' })), 'the next run');
    expect(asked).toHaveLength(2); // asked again, not allowed by the deleted conversation's "always"
    expect(own(events, 'ToolCallEnd')[0]!.error).toContain('rejected');
    await Promise.all([a.close(), b.close()]);
  });
});
