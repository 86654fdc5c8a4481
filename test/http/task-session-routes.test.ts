import { describe, expect, it } from 'vitest';
import { runsHandler } from '../../src/http/runs-handler.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { TASK_TRANSCRIPT, taskSessionPerTest } from '../engine/support/task-session-setup.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

// A delegated task's session is no conversation of the HTTP API: a run on it is refused
// (400, nothing started), and the conversation routes neither show nor delete it (404).
const scene = taskSessionPerTest();
const http = httpServerPerTest();

describe('the HTTP routes and a delegated task session', () => {
  it('POST /runs on a task id is a 400; GET, DELETE, compact and the archive of it are 404s', async () => {
    const f = await scene.start();
    const store = new FileSessionStore(f.workspace.dir, { home: f.home });
    const live = scene.engine({ sessions: store });
    await live.call('go', { sessionId: 's1' });
    const taskId = live.tasks.list('s1')[0]!.taskId;
    const base = await http.serve(runsHandler(live));
    const res = await fetch(`${base}/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'INJECTED', sessionId: taskId }) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('is the session of a delegated task');
    expect(live.runs.list({ sessionId: taskId })).toEqual([]);
    const got = await fetch(`${base}/sessions/${taskId}`);
    expect(got.status).toBe(404);
    expect(await got.text()).not.toContain('PARENT-PROMPT');
    expect((await fetch(`${base}/sessions/${taskId}`, { method: 'DELETE' })).status).toBe(404);
    const archive = await fetch(`${base}/sessions/${taskId}/archive`);
    expect(archive.status).toBe(404);
    expect(await archive.text()).not.toContain('PARENT-PROMPT');
    const compact = await fetch(`${base}/sessions/${taskId}/compact`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(compact.status).toBe(404);
    expect(await compact.text()).not.toContain('PARENT-PROMPT');
    expect(await store.load(taskId)).toEqual(TASK_TRANSCRIPT);
    expect((await fetch(`${base}/sessions/s1`)).status).toBe(200); // the conversation itself still is one
  });
});
