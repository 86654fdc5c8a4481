// @ts-check
/**
 * The rxharness side of the delegation scenario (`scenarios/delegation.*`): a main agent
 * whose only tools are the delegation tools, and 4 tool-less workers, on the real `openai`
 * client pointed at the fake server. Plain JavaScript (typed by `delegation-engine.d.mts`)
 * so the peer benchmark's worker process runs on bare `node`, without a TypeScript loader
 * whose memory would be counted.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import * as rx from '../../dist/index.js';

/** @type {{ mainMarker: string, workerMarker: string, workers: number }} */
const shape = JSON.parse(readFileSync(new URL('../scenarios/delegation.json', import.meta.url), 'utf8'));

/** @param {{ baseURL: string, workspace: string, home: string, client?: OpenAI, maxRetainedRuns?: number }} options */
export async function delegationEngine({ baseURL, workspace, home, client, maxRetainedRuns }) {
  const builtins = rx.createBuiltinTools().map((t) => t.name);
  const engine = new rx.HarnessEngine({
    model: new rx.OpenAIChatModel({ model: 'bench-model', client: client ?? new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0 }) }),
    workspace,
    homeDir: home,
    instructions: `${shape.mainMarker} You are the main agent. Delegate, then sum up.`,
    disabledTools: [...builtins, 'generate'],
    multitaskMaxTasks: shape.workers,
    // The peer passes results through whole: so do we, so both send the same final request.
    maxResultChars: 1_000_000,
    ...(maxRetainedRuns === undefined ? {} : { maxRetainedRuns }),
  });
  for (let i = 1; i <= shape.workers; i++) {
    const systemPrompt = `${shape.workerMarker} You are worker ${i}.`;
    engine.agents.add(rx.defineAgent({ name: `worker-${i}`, description: `Worker ${i}: reports on part ${i}.`, systemPrompt }));
  }
  await engine.agents.list(); // discovery (file I/O) done before anything is timed
  return engine;
}
