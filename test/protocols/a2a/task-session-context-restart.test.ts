import { describe, expect, it } from 'vitest';
import { taskSessionError } from '../../../src/engine/task-session-guard.js';
import { a2aHandler } from '../../../src/protocols/a2a/a2a-handler.js';
import { TASK_TRANSCRIPT, taskSessionPerTest } from '../../engine/support/task-session-setup.js';
import { httpServerPerTest } from '../../support/http-server-per-test.js';

// After a restart a task's id is known only to the store (a file store answers asynchronously):
// a message whose contextId named it called `engine.start`, which registered a run that failed
// with the refusal. It must be refused as the handler refuses any message that cannot run (a
// `400` with a JSON-RPC error), before any run is registered, as a live task's id is.
const scene = taskSessionPerTest();
const http = httpServerPerTest();

/** A blocking A2A 0.3 `message/send` of `text` in the conversation `contextId`. */
const send = (url: string, id: number, contextId: string, text: string): Promise<Response> =>
  fetch(`${url}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'message/send',
      params: { configuration: { blocking: true }, message: { kind: 'message', messageId: `m${id}`, role: 'user', contextId, parts: [{ kind: 'text', text }] } },
    }),
  });

describe("a2aHandler: a contextId that is a delegated task's session after a restart", () => {
  it('is refused (400) before any run is registered; the task transcript is left as it was', async () => {
    const { fixture: f, taskId, store, engine } = await scene.restarted();
    expect(engine.tasks.get(taskId)).toBeUndefined(); // only the store knows it
    const requests = f.server.requests.length;
    const url = await http.serve(a2aHandler(engine));
    const refused = await send(url, 7, taskId, 'INJECTED');
    expect(refused.status).toBe(400);
    const answer = (await refused.json()) as { id: number; error: { code: number; message: string } };
    expect(answer.id).toBe(7);
    expect(answer.error.code).toBe(-32000);
    expect(answer.error.message).toContain(taskSessionError(taskId).message);
    expect(engine.runs.list()).toEqual([]); // no failed run left behind
    expect(f.server.requests.length).toBe(requests); // no model request either
    expect(await store.load(taskId)).toEqual(TASK_TRANSCRIPT);
    // A conversation of another id still runs.
    const other = await send(url, 8, 's2', 'hello');
    expect(other.status).toBe(200);
    expect(JSON.stringify(await other.json())).toContain('INJECTED-ANSWER');
    expect(engine.runs.list().map((run) => run.sessionId)).toEqual(['s2']);
  });
});
