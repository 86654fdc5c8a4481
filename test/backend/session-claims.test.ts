import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../../src/agent/session-busy-error.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { runsHandler } from '../../src/http/runs-handler.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { SessionClaim } from '../../src/session/session-claim.js';
import type { SessionStore } from '../../src/session/session-store.js';
import { record } from '../support/collect-events.js';
import { createGate } from '../support/deferred.js';
import { listen, postJson } from '../http/http-kit.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor } from './scale-kit.js';
import { engineProcess } from './worker-processes.js';
import { EMPTY_HOME } from '../support/empty-home.js';

describe('the engine takes a run\'s session claim through its store', () => {
  it('a claim the store refuses fails the run with SessionBusyError naming the holder; a granted one is released after the end', async () => {
    const released: string[] = [];
    let holder: string | undefined = 'run_elsewhere';
    const store: SessionStore = {
      load: () => [],
      append: () => undefined,
      // Asynchronous, as a store shared between processes answers.
      claim: async (sessionId, owner): Promise<SessionClaim> =>
        holder !== undefined ? { granted: false, owner: holder } : { granted: true, release: () => void released.push(`${sessionId}:${owner}`) },
    };
    const engine = new HarnessEngine({ model: new ScriptedModel([{ text: 'ran' }]), homeDir: EMPTY_HOME, sessions: store });
    const refused = await engine.call('hi', { sessionId: 's1' }).catch((e: unknown) => e);
    expect(SessionBusyError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ sessionId: 's1', activeRunId: 'run_elsewhere' });
    holder = undefined;
    const result = await engine.call('hi', { sessionId: 's1' });
    expect(result).toMatchObject({ text: 'ran', abnormal: false });
    expect(released).toEqual([`s1:${result.runId}`]);
    await engine.close();
  });
});

describe.skipIf(!HAS_REDIS)('one owner per session across engines sharing a Redis', () => {
  const scale = useScaleKits();

  it('two engines racing for one session: exactly one runs, the other gets SessionBusyError; after the end, the other can run', async () => {
    const kit = await scale.kit();
    const gate = createGate();
    kit.fixture.route({
      main: async (turn) => {
        if (turn.prompt === 'first') await gate.promise;
        return { text: `answered ${turn.prompt}` };
      },
    });
    const [a, b] = [await kit.engine(), await kit.engine()];
    const runs = [record(a.stream('first', { sessionId: 'shared' })), record(b.stream('first', { sessionId: 'shared' }))];
    try {
      // Both started; the loser is refused while the winner's request is held.
      await waitFor(() => runs.some((r) => r.error !== undefined) || kit.fixture.requestsOf('main').length > 1, 10_000);
    } finally {
      gate.open();
    }
    await Promise.all(runs.map((r) => r.done));
    const lost = runs.filter((r) => r.error !== undefined);
    const won = runs.filter((r) => r.completed);
    expect(lost).toHaveLength(1);
    expect(won).toHaveLength(1);
    expect(kit.fixture.requestsOf('main')).toHaveLength(1);
    const winner = won[0]!.events[0]!;
    expect(SessionBusyError.isInstance(lost[0]!.error)).toBe(true);
    expect(lost[0]!.error).toMatchObject({ sessionId: 'shared', activeRunId: winner.runId });
    expect(won[0]!.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'answered first' });
    // Released at the end (a moment after the RunEnd): then the other engine runs the session, its history included.
    const conn = (await kit.backend()).parts.redis;
    await waitFor(async () => (await conn.exists(`${kit.prefix}:claim:shared`)) === 0);
    const loser = runs[0] === lost[0] ? a : b;
    await expect(loser.call('second', { sessionId: 'shared' })).resolves.toMatchObject({ text: 'answered second', abnormal: false });
    const sent = kit.fixture.requestsOf('main').at(-1)!.body.messages!.map((m) => m.content);
    expect(sent).toContain('answered first');
  });

  it('engine.start(): the run is readable at once though its lease takes a round trip; one refused by another engine rejects its result with SessionBusyError, and is a 409 over HTTP', async () => {
    const kit = await scale.kit();
    const gate = createGate();
    kit.fixture.route({
      main: async (turn) => {
        if (turn.prompt === 'held') await gate.promise;
        return { text: `answered ${turn.prompt}` };
      },
    });
    const [a, b] = [await kit.engine(), await kit.engine()];
    const first = a.start('held', { sessionId: 'started' });
    const events = record(first.events$); // attached before any event exists
    try {
      await waitFor(() => events.events.length > 0);
      const second = b.start('other', { sessionId: 'started' });
      await expect(second.result).rejects.toMatchObject({ name: 'SessionBusyError', activeRunId: first.runId });
      expect(b.runs.get(second.runId)?.state).toBe('failed');
      // Over HTTP from the other instance: a 409, as for a run of this process.
      const server = http.createServer(runsHandler(b));
      try {
        const response = await postJson(`${await listen(server)}/runs`, { prompt: 'over http', sessionId: 'started' });
        expect(response.status).toBe(409);
        expect(JSON.stringify(response.body)).toContain(`session \\"started\\" is busy: run ${first.runId}`);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      gate.open();
    }
    await events.done;
    expect(events.error).toBeUndefined();
    expect(events.events.map((e) => e.event.type)).toContain('RunStart');
    expect(events.events[0]!.event.type).toBe('RunStart');
    expect(events.events.at(-1)!.event).toMatchObject({ type: 'RunEnd', text: 'answered held' });
  });

  it('a lease whose owner process was killed (SIGKILL) expires, and the session becomes usable', { timeout: 60_000 }, async () => {
    const kit = await scale.kit();
    const held = createGate();
    kit.fixture.route({
      main: async (turn) => {
        if (turn.prompt === 'owned') await held.promise; // the owner's run never gets an answer
        return { text: `answered ${turn.prompt}` };
      },
    });
    const leaseMs = 1500;
    const owner = await engineProcess(kit, scale.redis, { model: 'proc-model', stallMs: 1000, prompt: 'owned', sessionId: 'orphaned', sessionLeaseMs: leaseMs });
    const conn = (await kit.backend()).parts.redis;
    const key = `${kit.prefix}:claim:orphaned`;
    try {
      await waitFor(async () => (await conn.get(key)) === owner.runId, 20_000);
      // Renewed while the run lives: its time left goes up again.
      const first = await conn.pttl(key);
      await waitFor(async () => (await conn.pttl(key)) > first, 10_000);
      const exited = new Promise<void>((resolve) => owner.child.once('exit', () => resolve()));
      owner.child.kill('SIGKILL');
      await exited;
      const engine = await kit.engine();
      // Still held right after the death: nobody renews it, nobody released it.
      const refused = await engine.call('mine', { sessionId: 'orphaned' }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ name: 'SessionBusyError', activeRunId: owner.runId });
      await waitFor(async () => (await conn.exists(key)) === 0, 10_000);
      await expect(engine.call('mine', { sessionId: 'orphaned' })).resolves.toMatchObject({ text: 'answered mine', abnormal: false });
    } finally {
      held.open();
      owner.child.kill('SIGKILL');
    }
  });
});
