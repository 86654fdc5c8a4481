import { describe, expect, it } from 'vitest';
import { taskSessionError } from '../../src/engine/task-session-guard.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { TASK_TRANSCRIPT, taskSessionPerTest } from '../engine/support/task-session-setup.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

// After a restart a task's id is known only to the store (a file store answers asynchronously):
// POST /runs on it answered 201, registered a run and let it fail with the refusal; it must be
// refused before anything is registered, a 400 with the refusal's message, as a live task's is.
const scene = taskSessionPerTest();
const http = httpServerPerTest();

describe('POST /runs on a task id after a restart', () => {
  it('is a 400 with the refusal, and no run is registered', async () => {
    const { fixture: f, taskId, store, engine: fresh } = await scene.restarted();
    expect(fresh.tasks.get(taskId)).toBeUndefined(); // only the store knows it
    const requests = f.server.requests.length;
    const base = await http.serve(runsHandler(fresh));
    const res = await fetch(`${base}/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'INJECTED', sessionId: taskId }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: taskSessionError(taskId).message });
    expect(fresh.runs.list()).toEqual([]);
    expect(f.server.requests.length).toBe(requests); // no model request either
    expect(await store.load(taskId)).toEqual(TASK_TRANSCRIPT);
    // A conversation of another id still starts.
    const other = await fetch(`${base}/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'hello', sessionId: 's2' }) });
    expect(other.status).toBe(201);
  });
});
