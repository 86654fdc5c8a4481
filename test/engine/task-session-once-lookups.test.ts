import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import type { TaskSessionInfo } from '../../src/session/session-store.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';
import { taskSessionPerTest } from './support/task-session-setup.js';

// Whether a session id is a delegated task's is asked once per request: `start` answered it,
// then its guarded agent asked the tracker again; the compact route asked the tracker and the
// store for its 404, then `engine.compact` asked both again. The refusals themselves are pinned
// by task-session-refused.test.ts and test/http/task-session-routes.test.ts.
const scene = taskSessionPerTest();
const http = httpServerPerTest();

/** A FileSessionStore that counts its task-info lookups, per id (it still answers them). */
class CountingStore extends FileSessionStore {
  readonly lookups: string[] = [];
  override loadTaskInfo(taskId: string): Promise<TaskSessionInfo | undefined> {
    this.lookups.push(taskId);
    return super.loadTaskInfo(taskId);
  }
}

const post = (url: string, body?: unknown): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** How many times the engine's tracker was asked about `id` (the spy calls through). */
function trackerAsks(e: HarnessEngine): (id: string) => number {
  const get = vi.spyOn(e.tasks, 'get');
  return (id) => get.mock.calls.filter(([asked]) => asked === id).length;
}

describe('the task-session check, once per request', () => {
  it('engine.start asks the tracker once about its session id', async () => {
    await scene.start('fine');
    const e = scene.engine();
    const asks = trackerAsks(e);
    const run = e.start('hello', { sessionId: 'conv-1' });
    expect((await run.result).text).toBe('fine');
    expect(asks('conv-1')).toBe(1);
  });

  it('POST /runs asks the tracker once about its session id', async () => {
    await scene.start('fine');
    const e = scene.engine();
    const base = await http.serve(runsHandler(e));
    const asks = trackerAsks(e);
    const res = await post(`${base}/runs`, { prompt: 'hello', sessionId: 'conv-2' });
    expect(res.status).toBe(201);
    const { runId } = (await res.json()) as { runId: string };
    await expect.poll(() => e.runs.get(runId)?.state).toBe('done');
    expect(asks('conv-2')).toBe(1);
  });

  it('POST /sessions/:id/compact asks the store once about a task_ id: a 200 for a conversation of that name, a 404 for a task', async () => {
    const { taskId, store, engine: e } = await scene.restarted('fine', (dir, home) => new CountingStore(dir, { home }));
    // A conversation the client named like a task: the store has no task of that id.
    const named = `task_${randomUUID()}`;
    await e.call('hello', { sessionId: named });
    const base = await http.serve(runsHandler(e));
    store.lookups.length = 0;
    expect((await post(`${base}/sessions/${named}/compact`)).status).toBe(200);
    expect(store.lookups).toEqual([named]);
    store.lookups.length = 0;
    const res = await post(`${base}/sessions/${encodeURIComponent(taskId)}/compact`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('PARENT-PROMPT');
    expect(store.lookups).toEqual([taskId]);
    expect(await store.load(taskId)).toHaveLength(2); // left as it was
  });

  it('POST /sessions/:id/compact on a conversation asks the tracker once', async () => {
    await scene.start('fine');
    const e = scene.engine();
    await e.call('hello', { sessionId: 'conv-3' });
    const base = await http.serve(runsHandler(e));
    const asks = trackerAsks(e);
    const res = await post(`${base}/sessions/conv-3/compact`);
    expect(res.status).toBe(200);
    expect(asks('conv-3')).toBe(1);
  });
});
