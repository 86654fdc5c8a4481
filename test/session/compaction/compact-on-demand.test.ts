import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import { runsHandler } from '../../../src/http/runs-handler.js';
import { estimateTokens } from '../../../src/model/estimate-tokens.js';
import { MemorySessionStore } from '../../../src/session/memory-session-store.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { makeWorkspace } from '../../support/tool-context.js';
import { alternationProblems, isSummaryRequest, pagedHistory, SUMMARY } from '../../support/compaction-kit.js';

describe('compaction on demand', () => {
  let server: FakeOpenAIServer | undefined;
  let http: Server | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    http?.close();
    await server?.close();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function engineWith(sessions: MemorySessionStore): Promise<HarnessEngine> {
    server = await FakeOpenAIServer.start({ handler: (r) => (isSummaryRequest(r) ? { text: SUMMARY } : r.body.messages?.at(-1)?.content === 'wait' ? { hang: true } : { text: 'ok' }) });
    const workspace = await makeWorkspace();
    cleanups.push(() => workspace.cleanup());
    return new HarnessEngine({ model: openAIModelFor(server), workspace: workspace.dir, homeDir: workspace.home, sessions });
  }

  it('engine.compact summarises everything before the last turn, keeps the transcript, and the next run reads the summary', async () => {
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory());
    const engine = await engineWith(sessions);
    const event = await engine.compact('s');
    expect(event).toMatchObject({ type: 'Compaction', sessionId: 's', reason: 'manual', prunedToolResults: 5, summarisedMessages: 20, archived: true });
    // the counts are the whole request's (system prompt and tool schemas too); the session's part shrank to under a third
    const fixed = event.tokensBefore - estimateTokens(pagedHistory());
    expect(fixed).toBeGreaterThan(0);
    expect(event.tokensAfter - fixed).toBeLessThan((event.tokensBefore - fixed) / 3);
    // The summary, with the last turn's prompt, then the last turn as it was.
    const stored = sessions.load('s');
    expect(stored).toHaveLength(4);
    expect(stored[0]).toMatchObject({ role: 'user' });
    expect(stored[0]!.content).toContain(SUMMARY);
    expect(stored[0]!.content).toMatch(/Tell me about topic 6$/);
    expect(stored.slice(1)).toEqual(pagedHistory().slice(21));
    expect(alternationProblems(stored)).toEqual([]);
    // The summariser saw the turns it replaced (with the compaction agent's prompt, no tools).
    const summary = server!.requests.find(isSummaryRequest)!;
    expect(summary.body.messages!.at(-1)!.content).toContain('Tell me about topic 1');
    expect(sessions.loadArchive('s')).toEqual(pagedHistory());
    await engine.call('And topic 7?', { sessionId: 's' });
    expect(server!.requests.at(-1)!.body.messages![1]!.content).toContain(SUMMARY);
    expect(sessions.loadArchive('s')).toEqual([...pagedHistory(), { role: 'user', content: 'And topic 7?' }, { role: 'assistant', content: 'ok' }]);
  });

  it('POST /api/sessions/:id/compact compacts (200, the event), GET .../archive reads the transcript, and a session in use is refused with 409', async () => {
    const sessions = new MemorySessionStore();
    sessions.append('s', pagedHistory());
    const engine = await engineWith(sessions);
    http = createServer(runsHandler(engine, { basePath: '/api' })).listen(0, '127.0.0.1');
    await once(http, 'listening');
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api`;
    // A POST any page could send (no preflight: a form's type, or none) compacts nothing.
    const simple: Array<Record<string, string>> = [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }];
    for (const headers of simple) {
      expect((await fetch(`${base}/sessions/s/compact`, { method: 'POST', headers })).status).toBe(415);
    }
    expect((await engine.sessions.load('s')).length).toBeGreaterThan(20);
    const json = { 'content-type': 'application/json' };
    const compacted = await fetch(`${base}/sessions/s/compact`, { method: 'POST', headers: json });
    expect(compacted.status).toBe(200);
    expect(await compacted.json()).toMatchObject({ type: 'Compaction', sessionId: 's', reason: 'manual', summarisedMessages: 20 });
    const archive = await fetch(`${base}/sessions/s/archive`);
    expect(await archive.json()).toEqual({ sessionId: 's', messages: pagedHistory() });
    expect((await fetch(`${base}/sessions/s/compact`)).status).toBe(405);
    // A run holds the session (its model never answers): compaction must wait its turn.
    const run = engine.start('wait', { sessionId: 's' });
    await server!.waitForRequests(server!.requests.length + 1);
    const busy = await fetch(`${base}/sessions/s/compact`, { method: 'POST', headers: json });
    expect(busy.status).toBe(409);
    await engine.runs.cancel(run.runId);
  });
});
