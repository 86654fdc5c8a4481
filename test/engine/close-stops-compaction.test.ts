/**
 * `engine.close()` stops what the engine is doing for a conversation: a compaction on demand
 * (`engine.compact`, `POST /sessions/:id/compact`) too. Left running, its summary request
 * would hold a socket to the model server past `close()`, and it would rewrite the session
 * in a store the application may be closing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClosedError } from '../../src/engine/engine-closed-error.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { isSummaryRequest, pagedHistory } from '../support/compaction-kit.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { openAIModelFor } from '../support/openai-model.js';
import { makeWorkspace } from '../support/tool-context.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('engine.close() during a compaction on demand', () => {
  it('aborts its summary request, rejects it, and leaves the session as it was', async () => {
    const server = await FakeOpenAIServer.start({ handler: (r) => (isSummaryRequest(r) ? { hang: true } : { text: 'ok' }) });
    cleanups.push(() => server.close());
    const workspace = await makeWorkspace();
    cleanups.push(() => workspace.cleanup());
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory());
    const engine = new HarnessEngine({ model: openAIModelFor(server), workspace: workspace.dir, homeDir: workspace.home, sessions });

    const compaction = engine.compact('s');
    compaction.catch(() => undefined);
    await server.waitForRequests(1);
    await engine.close();

    expect((await server.waitForClosed(0)).aborted).toBe(true);
    await expect(compaction).rejects.toBeInstanceOf(EngineClosedError);
    expect(sessions.load('s')).toEqual(pagedHistory());
    expect(sessions.claim('s', 'after').granted).toBe(true); // the compaction's claim was released
  });
});
