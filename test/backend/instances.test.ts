import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { HarnessWorker } from '../../src/backend/harness-worker.js';
import { HarnessEngine } from '../../src/engine/harness-engine.js';
import { MemoryEventLog } from '../../src/runs/memory-event-log.js';
import { MemorySessionStore } from '../../src/session/memory-session-store.js';
import { testAgent } from '../support/agent-turns.js';
import { leakedResources, resourceCounts } from '../support/active-resources.js';
import { multitaskReply, steps } from '../support/delegation-script.js';
import type { Turn } from '../support/agent-turns.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits, waitFor, type ScaleKit } from './scale-kit.js';

const AGENTS = [testAgent('explorer')];

describe.skipIf(!HAS_REDIS)('several app instances on one backend', () => {
  const scale = useScaleKits();
  let kit: ScaleKit;

  it('attaches through instance A to a run executing on instance B and its workers: every event, in seq order', async () => {
    const k = (kit = await scale.kit());
    k.fixture.route({
      main: steps(multitaskReply([[1, 'explorer', 'a', 'one'], [2, 'explorer', 'b', 'two']])),
      explorer: (turn) => ({ text: `found ${turn.prompt}`, chunkSize: 2, chunkDelayMs: 5 }),
    });
    await k.worker();
    const b = await k.engine({ distributeTasks: true }, AGENTS);
    const a = await k.engine({}, AGENTS);
    const run = b.start('go');
    await waitFor(() => a.runs.get(run.runId) !== undefined);
    const [there, here] = await Promise.all([lastValueFrom(run.events$.pipe(toArray())), lastValueFrom(a.runs.attach(run.runId).pipe(toArray()))]);
    expect(here.map((e) => e.seq)).toEqual(there.map((_, i) => i + 1));
    expect(here).toEqual(there);
    expect(here.at(-1)!.event.type).toBe('RunEnd');
    await waitFor(() => a.runs.get(run.runId)?.state === 'done');
  });

  it('delivers a background result at the next prompt on another instance when the one that started it is down', async () => {
    const k = (kit = await scale.kit());
    const main = (turn: Turn) =>
      turn.prompt.includes('<background_task_results>')
        ? { text: `saw: ${turn.prompt}` }
        : turn.step === 1 && turn.prompt === 'go'
          ? { toolCalls: [{ name: 'task', arguments: { agent_name: 'explorer', prompt: 'slow', description: 'bg', background: true } }] }
          : { text: `plain: ${turn.prompt}` };
    k.fixture.route({ main, explorer: () => ({ text: 'the background answer', delayMs: 600 }) });
    await k.worker();
    const backendA = await k.backend();
    const a = await k.engine({}, AGENTS, backendA);
    expect((await a.call('go', { sessionId: 'ses_shared' })).text).toContain('plain');
    // Instance A goes down while its task runs on the worker.
    await waitFor(() => k.fixture.server.requests.length === 3);
    await backendA.close();
    const probe = await k.backend();
    await waitFor(async () => (await probe.parts.redis.hlen(probe.parts.keys.results('ses_shared'))) === 1);
    const b = await k.engine({}, AGENTS);
    const next = await b.call('and now?', { sessionId: 'ses_shared' });
    expect(next.text).toContain('<background_task_results>');
    expect(next.text).toContain('the background answer');
    expect((await b.call('again', { sessionId: 'ses_shared' })).text).toBe('plain: again');
  });

  it('rejects options that contradict a backend, naming them', async () => {
    const k = (kit = await scale.kit());
    const backend = await k.backend();
    const model = k.fixture.model();
    expect(() => new HarnessEngine({ model, backend, sessions: new MemorySessionStore() })).toThrow('`sessions` and `backend` cannot be given together');
    expect(() => new HarnessEngine({ model, backend, eventLog: new MemoryEventLog() })).toThrow('`eventLog` and `backend` cannot be given together');
    expect(() => new HarnessEngine({ model, distributeTasks: true })).toThrow('`distributeTasks` needs a `backend`');
    expect(() => new HarnessWorker({ model, backend, concurrency: 0 })).toThrow('`concurrency` must be a positive integer');
    expect(() => new HarnessWorker({ model, backend, bogus: 1 } as never)).toThrow(/bogus/);
  });

  it('leaves no socket or timer behind once engines, workers and backends are closed', async () => {
    const baseline = resourceCounts();
    const k = await scale.kit();
    k.fixture.route({ main: steps(multitaskReply([[1, 'explorer', 'a', 'one']])), explorer: () => ({ text: 'ok' }) });
    await k.worker();
    const engine = await k.engine({ distributeTasks: true }, AGENTS);
    await engine.call('go');
    await k.close();
    expect(await leakedResources(baseline, 200)).toEqual({});
  });
});
