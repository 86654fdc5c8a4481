import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { FileSessionStore } from '../../src/session/file-session-store.js';
import { startDelegationFixture, type DelegationFixture } from '../support/delegation-fixture.js';
import { httpServerPerTest } from '../support/http-server-per-test.js';

// DELETE /sessions/:id forgets the whole conversation: a new one of the id starts clean,
// without the deleted one's runs, and those runs' events are not served any more.
let f: DelegationFixture;
let engine: HarnessEngine | undefined;
const http = httpServerPerTest();
afterEach(async () => {
  await engine?.close();
  await f.close();
});

describe('DELETE /sessions/:id and the runs of the conversation', () => {
  it('GET /sessions/:id of a new conversation of the id lists only its own runs; the old run events are gone', async () => {
    f = await startDelegationFixture({ main: (turn) => ({ text: turn.prompt === 'MY-SECRET-PROMPT' ? 'MY-SECRET-ANSWER' : 'fresh' }) });
    const live = (engine = f.engine({ sessions: new FileSessionStore(f.workspace.dir, { home: f.workspace.home }) }));
    const base = await http.serve(runsHandler(live));
    const post = async (prompt: string): Promise<string> => {
      const res = await fetch(`${base}/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt, sessionId: 's1' }) });
      const { runId } = (await res.json()) as { runId: string };
      await live.runs.attach(runId).forEach(() => undefined); // until it ends
      return runId;
    };
    const old = await post('MY-SECRET-PROMPT');
    expect((await fetch(`${base}/sessions/s1`, { method: 'DELETE' })).status).toBe(204);
    const fresh = await post('hello');
    const session = (await (await fetch(`${base}/sessions/s1`)).json()) as { runs: { runId: string }[] };
    expect(session.runs.map((r) => r.runId)).toEqual([fresh]);
    const events = await fetch(`${base}/runs/${old}/events`);
    expect(events.status).toBe(404);
    expect(await events.text()).not.toContain('MY-SECRET');
  });
});
