import { describe, expect, it } from 'vitest';
import { taskSessionError } from '../../../src/engine/task-session-guard.js';
import { a2aHandler } from '../../../src/protocols/a2a/a2a-handler.js';
import { taskSessionPerTest } from '../../engine/support/task-session-setup.js';
import { httpServerPerTest } from '../../support/http-server-per-test.js';

// A message whose contextId names a delegated task's session is refused `400`. Its contextId is
// well-formed and its text part is there, so the advice every other refusal of a start gets
// ("send a text part, and a contextId that is a well-formed string") would send the client
// looking for a fault its message does not have: the advice must say what to do instead.
const scene = taskSessionPerTest();
const http = httpServerPerTest();

/** A blocking A2A 0.3 `message/send` of `text` in the conversation `contextId`. */
const send = (url: string, contextId: string, text: string): Promise<Response> =>
  fetch(`${url}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { configuration: { blocking: true }, message: { kind: 'message', messageId: 'm1', role: 'user', contextId, parts: [{ kind: 'text', text }] } },
    }),
  });

describe("a2aHandler: the refusal of a delegated task's contextId", () => {
  it('advises another contextId (or none), not a well-formed one', async () => {
    const { taskId, engine } = await scene.restarted();
    const url = await http.serve(a2aHandler(engine));
    const refused = await send(url, taskId, 'hello');
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { message: string } };
    expect(error.message).toBe(
      `the message cannot run: ${taskSessionError(taskId).message} (send it with another contextId, or none to start a new conversation)`,
    );
  });
});
