import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/model/chat-message.js';
import { RunSlots } from '../../../src/http/run-slots.js';
import { a2aHandler } from '../../../src/protocols/a2a/a2a-handler.js';
import type { A2AEngine } from '../../../src/protocols/a2a/a2a-handler-options.js';
import { FileSessionStore } from '../../../src/session/file-session-store.js';
import { createGate, type Gate } from '../../support/deferred.js';
import { delegationFixturePerTest } from '../../support/fixture-per-test.js';
import { httpServerPerTest } from '../../support/http-server-per-test.js';

/**
 * `tasks/cancel`, then a message in the same `contextId` whose client leaves while its start
 * waits for the cancelled run to close its turn (its closing write to a FileSessionStore held
 * on a gate). The wait ends with the client: once the session is free nothing starts (no run,
 * no task: nobody asked for it any more), and the request's run slot is given back. Before,
 * the handler gave the wait no way to learn the client left, and the run started once the
 * session was free.
 */
const startFixture = delegationFixturePerTest();
const http = httpServerPerTest();

/** A FileSessionStore whose writes wait for `gate` while one is set. */
class GatedFileStore extends FileSessionStore {
  gate: Gate | undefined;
  override async append(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
    await this.gate?.promise;
    return super.append(sessionId, messages);
  }
}

/** The real engine, every call passed on; its starts counted (a busy session refuses them, at once or in the run's first event). */
function counted(engine: A2AEngine, count: () => void): A2AEngine {
  return {
    runs: engine.runs,
    agents: engine.agents,
    start: (prompt, options) => {
      count();
      return engine.start(prompt, options);
    },
  };
}

const rpcBody = (id: number, method: string, params: object): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const message = (contextId: string, text: string, blocking: boolean) => ({
  configuration: { blocking },
  message: { kind: 'message', messageId: `m-${text}`, role: 'user', contextId, parts: [{ kind: 'text', text }] },
});

describe('a2aHandler: a client that leaves while its message waits for a cancelled task to end', () => {
  it.each(['message/send', 'message/stream'])('%s: the wait ends, nothing starts, and its slot is given back', async (method) => {
    const fixture = await startFixture({ main: () => ({ hang: true }) });
    const sessions = new GatedFileStore(mkdtempSync(join(tmpdir(), 'a2a-leaves-')));
    const engine = fixture.engine({ sessions });
    let starts = 0;
    const slots = new RunSlots(4);
    const a2a = a2aHandler(counted(engine, () => (starts += 1)), { maxRuns: slots });
    let closed = false; // the server saw the leaving client's connection close
    const url = `${await http.serve((req, res) => {
      if (req.headers['x-leaving'] !== undefined) res.once('close', () => (closed = true));
      a2a(req, res);
    })}/a2a`;
    const post = (body: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, ...(signal ? { signal } : {}) });
    const first = (await (await post(rpcBody(1, 'message/send', message('ctx-1', 'hang please', false)))).json()) as { result: { id: string } };
    await fixture.server.waitForRequests(1, 15_000);
    const [firstRun] = engine.runs.list();
    sessions.gate = createGate(); // the cancelled run's closing write is held: its session stays held
    await post(rpcBody(2, 'tasks/cancel', { id: first.result.id }));
    const leaving = new AbortController();
    const second = post(rpcBody(3, method, message('ctx-1', 'again', true)), { 'x-leaving': '1' }, leaving.signal);
    await expect.poll(() => starts, { timeout: 20_000 }).toBeGreaterThan(3); // waiting: the first, then the second refused, and tried again
    expect(slots.taken).toBe(1); // the waiting request's
    leaving.abort();
    await second.catch(() => undefined);
    await expect.poll(() => closed, { timeout: 20_000 }).toBe(true);
    sessions.gate.open(); // the session is free now: a wait that went on would start the run
    // The wait ended (its slot is given back only then) and started nothing.
    await expect.poll(() => slots.taken, { timeout: 20_000 }).toBe(0);
    expect(engine.runs.list().map((r) => r.runId)).toEqual([firstRun!.runId]);
    expect(fixture.server.requests).toHaveLength(1);
  }, 30_000);
});
