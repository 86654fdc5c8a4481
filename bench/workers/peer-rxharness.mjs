// @ts-check
/**
 * The rxharness side of the peer benchmark, in a fresh process: `engine.stream()` of the
 * delegation scenario (one `multitask` to 4 workers), every event consumed.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { toAsyncIterable } from '../../dist/index.js';
import { delegationEngine } from '../support/delegation-engine.mjs';
import { measureRuns, workerConfig } from './measure-runs.mjs';

const { mainPrompt } = JSON.parse(readFileSync(new URL('../scenarios/delegation.json', import.meta.url), 'utf8'));
const config = workerConfig();
const engine = await delegationEngine(config);

await measureRuns(config.runs, async () => {
  let events = 0;
  for await (const event of toAsyncIterable(engine.stream(mainPrompt))) {
    events++;
    if (event.type === 'RunEnd' && event.abnormal) throw new Error(`rxharness run failed: ${event.error}`);
  }
  return events;
});
