import { afterEach } from 'vitest';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarnessEngine } from '../../../src/engine/harness-engine.js';
import type { SessionStore } from '../../../src/session/session-store.js';
import type { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { openAIModelFor } from '../../support/openai-model.js';
import { testAgent } from '../../support/agent-turns.js';
import { homeBeside } from '../../support/tool-context.js';
import { backgroundScanServer, lastUserPrompt } from './background-scan.js';

/** Engines sharing a store over one {@link backgroundScanServer}, made and closed per test. */
export interface ScanEngines {
  /** Starts this test's fake model (see {@link backgroundScanServer}); closed after the test. */
  serve(gate: Promise<void>, findings: string, always?: boolean): Promise<FakeOpenAIServer>;
  /**
   * `count` engines with a `scanner` agent in one new folder (workspace and home), each on
   * `sessions(dir)`: return one store for all to share it in the process, or a new one over
   * the same folder for engines as of separate processes.
   */
  engines(count: number, sessions: (dir: string) => SessionStore): Promise<HarnessEngine[]>;
  /** The last user message of the main agent's last request: where background results are put. */
  lastPrompt(): string;
}

/**
 * Registers an `afterEach` closing every engine made in the test, then the server (engines
 * first: a background task still running must not meet a closed server).
 *
 * @example
 * ```ts
 * const scan = scanEnginesPerTest();
 * await scan.serve(Promise.resolve(), 'FINDINGS');
 * const [a, b] = await scan.engines(2, () => store);
 * ```
 */
export function scanEnginesPerTest(): ScanEngines {
  let server: FakeOpenAIServer | undefined;
  const made: HarnessEngine[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((e) => e.close()));
    await server?.close();
    server = undefined;
  });
  return {
    async serve(gate, findings, always) {
      server = await backgroundScanServer(gate, findings, always);
      return server;
    },
    async engines(count, sessions) {
      const dir = await realpath(await mkdtemp(join(tmpdir(), 'rx-scan-engines-')));
      return Array.from({ length: count }, () => {
        const engine = new HarnessEngine({ model: openAIModelFor(server!), workspace: dir, homeDir: homeBeside(dir), sessions: sessions(dir) });
        engine.agents.add(testAgent('scanner'));
        made.push(engine);
        return engine;
      });
    },
    lastPrompt: () => lastUserPrompt(server!),
  };
}
