import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { startRun } from '../../src/client/index.js';
import type { HarnessBackend } from '../../src/engine/harness-backend.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { runsHandler, type RunsEngine } from '../../src/http/runs-handler.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { createGate, type Gate } from '../support/deferred.js';
import { listen } from '../http/http-kit.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

/**
 * Two engines on one Redis. A run of engine A is cancelled while its closing write to the
 * shared store is held (so its lease on the session is held too); a `POST /runs` of the same
 * session to engine B waits for it (B knows A's run as cancelled), and each try is refused
 * by the lease after B's `engine.start` returned. Each such refusal left a `failed` run in
 * B's `engine.runs` (and in A's copy of B's runs): dozens over the wait. Now a refusal tried
 * again is forgotten, here and on the backend: only the run that started is left.
 */
describe.skipIf(!HAS_REDIS)('a start waiting for a run another engine is ending', () => {
  const scale = useScaleKits();

  it('leaves no failed run per refused try, in either engine', { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    kit.fixture.route({ main: (turn) => (turn.prompt === 'hang' ? { hang: true } : { text: `answered ${turn.prompt}` }) });
    let gate: Gate | undefined;
    const a = await kit.engine({}, [], heldWrites(await kit.backend(), () => gate?.promise));
    const b = await kit.engine();
    let tries = 0;
    const server = http.createServer(runsHandler(counted(b, () => (tries += 1))));
    try {
      const api = await listen(server);
      const first = a.start('hang', { sessionId: 'shared' });
      await waitFor(() => kit.fixture.requestsOf('main').length > 0);
      gate = createGate(); // the cancelled run's closing write is held: its lease stays
      a.runs.cancel(first.runId);
      await waitFor(() => b.runs.get(first.runId)?.state === 'cancelled');
      const second = startRun(api, { prompt: 'again', sessionId: 'shared' });
      await waitFor(() => tries > 3); // refused by A's lease, and tried again
      gate.open();
      const started = await second;
      await expect.poll(() => b.runs.get(started.runId)?.state, { timeout: 20_000 }).toBe('done');
      const failed = (engine: HarnessEngine) => engine.runs.list().filter((r) => r.state === 'failed');
      expect(failed(b)).toEqual([]);
      // A heard of each refused run, and of its forgetting.
      await waitFor(() => a.runs.get(started.runId)?.state === 'done');
      expect(failed(a)).toEqual([]);
    } finally {
      gate?.open();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** `backend`, its session store's writes waiting for `held()` while it gives a promise. */
function heldWrites<B extends HarnessBackend>(backend: B, held: () => Promise<void> | undefined): B {
  const sessions = new Proxy(backend.sessions, {
    get: (target, key) => {
      if (key === 'append') return async (...args: Parameters<SessionStore['append']>) => ((await held()), target.append(...args));
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return new Proxy(backend, {
    get: (target, key) => {
      if (key === 'sessions') return sessions;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The engine behind `runsHandler`, each `start` counted. */
function counted(engine: HarnessEngine, count: () => void): RunsEngine {
  return {
    runs: engine.runs,
    start: (prompt, options) => {
      count();
      return engine.start(prompt, options);
    },
  };
}
