import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { taskSessionError } from '../../src/engine/task-session-guard.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { taskReply } from '../support/delegation-script.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

// After a restart a task's id is known only to the store (a file store answers asynchronously):
// POST /runs on it answered 201, registered a run and let it fail with the refusal; it must be
// refused before anything is registered, a 400 with the refusal's message, as a live task's is.
let f: DelegationFixture;
let engine: HarnessEngine | undefined;
const http = httpServerPerTest();
afterEach(async () => {
  await engine?.close();
  engine = undefined;
  await f.close();
});

describe('POST /runs on a task id after a restart', () => {
  it('is a 400 with the refusal, and no run is registered', async () => {
    f = await startDelegationFixture({
      main: (turn) => (turn.prompt === 'go' ? (turn.step === 1 ? taskReply('alpha', 'PARENT-PROMPT', 'job') : { text: 'ok' }) : { text: 'INJECTED-ANSWER' }),
      alpha: () => ({ text: 'CHILD-ANSWER' }),
    });
    const earlier = f.engine({ sessions: new FileSessionStore(f.workspace.dir) }, [testAgent('alpha')]);
    await earlier.call('go', { sessionId: 's1' });
    const taskId = earlier.tasks.list('s1')[0]!.taskId;
    await earlier.close();
    const store = new FileSessionStore(f.workspace.dir);
    const fresh = (engine = f.engine({ sessions: store }, [testAgent('alpha')]));
    expect(fresh.tasks.get(taskId)).toBeUndefined(); // only the store knows it
    const requests = f.server.requests.length;
    const base = await http.serve(runsHandler(fresh));
    const res = await fetch(`${base}/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'INJECTED', sessionId: taskId }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: taskSessionError(taskId).message });
    expect(fresh.runs.list()).toEqual([]);
    expect(f.server.requests.length).toBe(requests); // no model request either
    expect(await store.load(taskId)).toEqual([
      { role: 'user', content: 'PARENT-PROMPT' },
      { role: 'assistant', content: 'CHILD-ANSWER' },
    ]);
    // A conversation of another id still starts.
    const other = await fetch(`${base}/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'hello', sessionId: 's2' }) });
    expect(other.status).toBe(201);
  });
});
