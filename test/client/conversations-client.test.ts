/**
 * rxharness/client's conversation and task calls against a real runsHandler: listSessions,
 * getSession, deleteSession, cancelTask, with the token, and their RunRequestErrors.
 */
import { describe, expect, it } from 'vitest';
import { cancelTask, deleteSession, getSession, listSessions, RunRequestError, startRun } from '../../src/client/index.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import { useTokenRunsApi } from '../support/token-runs-api.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';

const token = 'conversations-client-token-0123';
const runsApi = useTokenRunsApi(token);

describe('rxharness/client listSessions pages', () => {
  it('asks for a page with { limit, cursor } and follows nextCursor to the end; without them it still answers an array', async () => {
    const sessions = new MemorySessionStore();
    for (let i = 0; i < 7; i++) sessions.append(`ses_${i}`, [{ role: 'user', content: `prompt ${i}` }]);
    const served = await runsApi.serve({ model: new ScriptedModel([]), sessions });
    const api = `${served.url}/api`;
    const all = await listSessions(api, { token });
    expect(Array.isArray(all) && all.length).toBe(7);
    expect(all.nextCursor).toBeUndefined();
    const seen: string[] = [];
    let page = await listSessions(api, { token, limit: 3 });
    for (;;) {
      expect(page.length).toBeLessThanOrEqual(3);
      seen.push(...page.map((s) => s.sessionId));
      if (page.nextCursor === undefined) break;
      page = await listSessions(api, { token, limit: 3, cursor: page.nextCursor });
    }
    expect(seen.slice().sort()).toEqual(all.map((s) => s.sessionId).sort());
    expect(seen).toEqual(all.map((s) => s.sessionId));
    const refused = await listSessions(api, { token, cursor: 'not-a-cursor' }).catch((error: unknown) => error);
    expect(RunRequestError.isInstance(refused) && refused.status).toBe(400);
  });
});

describe('rxharness/client conversations and tasks', () => {
  it('lists, opens and deletes a conversation; cancels a task; says why a request was refused', async () => {
    const { served, fixture } = await runsApi.serveRoutes({
      main: (turn) => (turn.prompt === 'Delegate' ? steps(multitaskReply([[1, 'explore', 'wait', 'Waits'], [2, 'explore', 'quick', 'Quick']]))(turn) : { text: `answer to ${turn.prompt}` }),
      '*': (turn) => (turn.prompt === 'wait' ? { hang: true } : { text: 'quick done' }),
    });
    const api = `${served.url}/api`;
    const first = await startRun(api, { prompt: 'Hello there' }, { token });
    await served.engine.runs.attach(first.runId).forEach(() => undefined);

    expect((await listSessions(api, { token })).map((s) => [s.sessionId, s.title])).toEqual([[first.sessionId, 'Hello there']]);
    const opened = await getSession(api, first.sessionId, { token });
    expect(opened.messages.map((m) => m.content)).toEqual(['Hello there', 'answer to Hello there']);
    expect(opened.runs.map((r) => r.runId)).toEqual([first.runId]);

    const second = await startRun(api, { prompt: 'Delegate', sessionId: first.sessionId }, { token });
    await fixture.server.waitForRequests(4); // hello, delegate, then the two children
    const waiting = served.engine.tasks.list(first.sessionId).find((t) => t.description === 'Waits')!;
    await cancelTask(api, second.runId, waiting.taskId, { token });
    await served.engine.runs.attach(second.runId).forEach(() => undefined);
    expect(served.engine.runs.get(second.runId)?.state).toBe('done');

    const refused = await cancelTask(api, second.runId, 'task_nope', { token }).catch((error: unknown) => error);
    expect(RunRequestError.isInstance(refused) && refused.status).toBe(404);
    expect(await listSessions(api).catch((error: unknown) => RunRequestError.isInstance(error) && error.status)).toBe(401);

    await deleteSession(api, first.sessionId, { token });
    expect(await listSessions(api, { token })).toEqual([]);
    const gone = await getSession(api, first.sessionId, { token }).catch((error: unknown) => error);
    expect(RunRequestError.isInstance(gone) && gone.status).toBe(404);
  });
});
