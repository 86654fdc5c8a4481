/**
 * Two instances on one Redis: an AG-UI request reaching B may continue or cancel the thread's
 * run waiting for approvals at A (ag-ui-resume-elsewhere.test.ts), but only a run an AG-UI
 * handler started. B could not tell one from a `POST /runs` run (`engine.start`) on the same
 * session, so a new AG-UI turn at B cancelled that run, and a `resume` at B answered its
 * approval: a client of the runs API lost its run to a chat client. On one instance AG-UI leaves
 * such a run alone (a new turn is `409`); the shared record now says who started a run
 * (`origin`), and B does the same. A record without one (an older version's) or with one this
 * version does not know (planted in Redis) is read as not AG-UI's: refused, never cancelled.
 */
import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { agUiHandler } from '../../src/protocols/ag-ui/ag-ui-handler.js';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { steps } from '../support/delegation-script.js';
import { listen } from '../http/http-kit.js';
import { outcomeOf, postRunAgentInput, user, type AgUiAnswer } from '../protocols/ag-ui/ag-ui-requests.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';

const BASH = { toolCalls: [{ name: 'bash', arguments: { command: 'echo x' } }] };
const base = { threadId: 't1', messages: [user('go')], tools: [], context: [], state: {}, forwardedProps: {} };
const interruptOf = (answer: AgUiAnswer): string => (outcomeOf(answer)!['interrupts'] as Array<{ id: string }>)[0]!.id;

describe.skipIf(!HAS_REDIS)('agUiHandler at B: a run waiting at A that AG-UI did not start', () => {
  const scale = useScaleKits();
  const servers: Server[] = [];

  async function serveOn(engine: HarnessEngine): Promise<string> {
    const handle = agUiHandler(engine, { path: '/ag-ui' });
    const server = createServer((req, res) => void (handle(req, res) || res.writeHead(404).end()));
    servers.push(server);
    return (await listen(server)) + '/ag-ui';
  }

  async function kit() {
    const k = await scale.kit(30_000);
    k.fixture.route({ main: steps(BASH, { text: 'done' }) });
    return k;
  }

  const closeServers = (): void => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      s.close();
    }
  };

  it('is left alone: a new turn at B is 409 and a resume at B answers nothing, as at A; the run still waits', async () => {
    const k = await kit();
    const A = await k.engine();
    const B = await k.engine();
    const b = await serveOn(B);
    try {
      const run = A.start('go', { sessionId: 't1' }); // what POST /runs does
      await waitFor(() => B.runs.pendingApprovals(run.runId).length === 1); // B knows it waits
      const [waiting] = B.runs.pendingApprovals(run.runId);
      const turn = await postRunAgentInput(b, { ...base, messages: [user('go'), user('other')], runId: 'r1' });
      expect(turn.status).toBe(409);
      const resume = [{ interruptId: waiting!.approvalId, status: 'resolved', payload: { decision: 'approve' } }];
      const answered = await postRunAgentInput(b, { ...base, runId: 'r2', resume });
      expect(answered.status).toBe(409); // no AG-UI run waits: a new turn, and the session is busy
      expect(A.runs.get(run.runId)?.state).toBe('running');
      expect(A.runs.pendingApprovals(run.runId).map((p) => p.approvalId)).toEqual([waiting!.approvalId]);
      expect(k.fixture.requestsOf('main')).toHaveLength(1); // the approval was not applied: no second step
      run.cancel();
    } finally {
      closeServers();
    }
  }, 60_000);

  for (const [label, origin] of [
    ['without an origin (an older version\'s record)', undefined],
    ['with an origin this version does not know (planted)', 'AG-UI'],
    ['with an origin that is no string (planted)', { kind: 'ag-ui' }],
  ] as const) {
    it(`reads an AG-UI run's record ${label} as not AG-UI's: kept and listed, but a new turn at B is 409, not a cancel`, async () => {
      const k = await kit();
      const A = await k.engine();
      const a = await serveOn(A);
      try {
        interruptOf(await postRunAgentInput(a, { ...base, runId: 'r1' }));
        const runId = A.runs.list()[0]!.runId;
        expect(A.runs.originOf(runId)).toBe('ag-ui');
        // Rewritten in the runs hash before B starts, which loads its copy from there.
        const { redis, keys } = (await k.backend()).parts;
        await waitFor(async () => JSON.parse((await redis.hget(keys.runs, runId)) ?? '{}').pending?.length === 1);
        const stored = JSON.parse((await redis.hget(keys.runs, runId))!) as Record<string, unknown>;
        expect(stored['origin']).toBe('ag-ui'); // the owner wrote it
        const { origin: _written, ...older } = stored;
        await redis.hset(keys.runs, runId, JSON.stringify(origin === undefined ? older : { ...older, origin }));
        const B = await k.engine();
        const b = await serveOn(B);
        expect(B.runs.get(runId)?.state).toBe('running'); // the record is kept, not skipped as malformed
        expect(B.runs.pendingApprovals(runId)).toHaveLength(1);
        expect(B.runs.originOf(runId)).toBeUndefined();
        const turn = await postRunAgentInput(b, { ...base, messages: [user('go'), user('other')], runId: 'r2' });
        expect(turn.status).toBe(409);
        expect(A.runs.get(runId)?.state).toBe('running');
      } finally {
        closeServers();
      }
    }, 60_000);
  }
});
