import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { HarnessEngine } from '../../src/engine/harness-engine.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { ProtocolEngine } from '../../src/protocols/protocol-engine.js';
import { startStreamedRun } from '../../src/protocols/start-streamed-run.js';
import type { RunHandle } from '../../src/runs/run-registry.js';
import { postJson, serveRuns, type RunsServer } from '../http/http-kit.js';

let served: RunsServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

type Outcome = { run: RunHandle | undefined; starts: number; released: Promise<void> };

/**
 * Serves `/streamed` with `startStreamedRun` over the real engine; `during(res)` runs as the
 * engine starts the run (the client leaving at that moment), `before(res)` before the call;
 * the model answers `done` after `delayMs`.
 */
async function streamedRun(hooks: { before?: (res: ServerResponse) => void; during?: (res: ServerResponse) => void }, delayMs = 0): Promise<Outcome> {
  let settle!: (outcome: Outcome) => void;
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  served = await serveRuns({ model: new ScriptedModel(() => ({ text: 'done', delayMs })) }, {}, (engine: HarnessEngine) => [
    (req, res) => {
      if (req.url !== '/streamed') return false;
      let starts = 0;
      const starting: ProtocolEngine = {
        runs: engine.runs,
        start: (...args) => {
          starts += 1;
          const run = engine.start(...args);
          hooks.during?.(res);
          return run;
        },
      };
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      hooks.before?.(res);
      void startStreamedRun(starting, release, 'go', {}, res).then((run) => {
        if (!res.destroyed) res.end('started');
        settle({ run, starts, released });
      });
      return true;
    },
  ]);
  void postJson(`${served.url}/streamed`, {}).catch(() => undefined);
  return outcome;
}

describe('startStreamedRun (the AG-UI and chat routes)', () => {
  it('a client that stays gets its run, which runs to its end and then gives the slot back', async () => {
    const { run, starts, released } = await streamedRun({});
    expect(starts).toBe(1);
    expect(run).toBeDefined();
    await expect(run!.result).resolves.toMatchObject({ text: 'done' });
    await released;
  });

  it('a client gone while its run started: the run is cancelled (no one could follow it), undefined, the slot given back', async () => {
    // the model would answer in a minute: only a cancel ends the run now
    const { run, starts, released } = await streamedRun({ during: (res) => res.destroy() }, 60_000);
    expect(starts).toBe(1);
    expect(run).toBeUndefined();
    const [info] = served!.engine.runs.list();
    expect(info?.state).toBe('cancelled');
    await released;
  });

  it('a client gone before its turn: nothing starts, undefined, the slot given back', async () => {
    const { run, starts, released } = await streamedRun({ before: (res) => res.destroy() });
    expect(starts).toBe(0);
    expect(run).toBeUndefined();
    expect(served!.engine.runs.list()).toEqual([]);
    await released;
  });
});
