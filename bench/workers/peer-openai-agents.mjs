// @ts-check
/**
 * The `@openai/agents` side of the peer benchmark, in a fresh process: a main Agent with
 * the 4 workers as agents-as-tools (`asTool`), parallel tool calls, chat completions on the
 * same fake server, tracing off, streamed: the main run's events and every nested run's
 * events (through `onStream`, which also makes the nested runs stream, as ours do) consumed.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { measureRuns, workerConfig } from './measure-runs.mjs';

const shape = JSON.parse(readFileSync(new URL('../scenarios/delegation.json', import.meta.url), 'utf8'));
const config = workerConfig();
setTracingDisabled(true);
const model = new OpenAIChatCompletionsModel(new OpenAI({ baseURL: config.baseURL, apiKey: 'bench', maxRetries: 0 }), 'bench-model');
let events = 0;
const tools = Array.from({ length: shape.workers }, (_, n) => {
  const i = n + 1;
  const worker = new Agent({ name: `worker-${i}`, instructions: `${shape.workerMarker} You are worker ${i}.`, model });
  return worker.asTool({ toolName: `worker_${i}`, toolDescription: `Worker ${i}: reports on part ${i}.`, onStream: () => void events++ });
});
const main = new Agent({
  name: 'main',
  instructions: `${shape.mainMarker} You are the main agent. Delegate, then sum up.`,
  model,
  tools,
  modelSettings: { parallelToolCalls: true },
});

await measureRuns(config.runs, async () => {
  events = 0;
  const result = await run(main, shape.mainPrompt, { stream: true });
  for await (const _event of result) events++;
  await result.completed;
  if (!result.finalOutput) throw new Error('@openai/agents run ended without a final output');
  return events;
});
