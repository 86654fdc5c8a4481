// @ts-check
/**
 * The Vercel AI SDK side of the peer benchmark, in a fresh process: the SDK's documented
 * subagent pattern (docs "Subagents: Streaming Subagent Progress"): a main `ToolLoopAgent`
 * whose 4 tools each run a worker `ToolLoopAgent` with `.stream()` and yield its progress as
 * preliminary tool results (`readUIMessageStream`, each yield the worker's message so far),
 * `toModelOutput` handing the main model the worker's text; models from
 * `@ai-sdk/openai-compatible` on the same fake server, no retries. The main agent is streamed
 * and every part of its `fullStream` consumed, the preliminary results included.
 *
 * `variant: 'deltas'` (a lighter pattern of our own, not the documentation's): each tool
 * yields every text delta of its worker as a preliminary result, `{ type: 'delta', text }`,
 * then `{ type: 'done', text }` with the whole text, which the main model gets; like our
 * consumer gets every wrapped child delta.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { jsonSchema, readUIMessageStream, ToolLoopAgent, tool } from 'ai';
import { measureRuns, workerConfig } from './measure-runs.mjs';

const shape = JSON.parse(readFileSync(new URL('../scenarios/delegation.json', import.meta.url), 'utf8'));
const config = workerConfig();
const provider = createOpenAICompatible({ name: 'bench', baseURL: config.baseURL, apiKey: 'bench', includeUsage: true });
const model = provider.chatModel('bench-model');
const inputSchema = jsonSchema({ type: 'object', properties: { input: { type: 'string' } }, required: ['input'], additionalProperties: false });

/** @type {Record<string, any>} */
const tools = {};
for (let i = 1; i <= shape.workers; i++) {
  const worker = new ToolLoopAgent({ model, instructions: `${shape.workerMarker} You are worker ${i}.`, maxRetries: 0 });
  tools[`worker_${i}`] = tool({
    description: `Worker ${i}: reports on part ${i}.`,
    inputSchema,
    execute: async function* ({ input }, { abortSignal }) {
      const result = await worker.stream({ prompt: input, abortSignal });
      if (config.variant === 'deltas') {
        for await (const delta of result.textStream) yield { type: 'delta', text: delta };
        yield { type: 'done', text: await result.text };
        return;
      }
      for await (const message of readUIMessageStream({ stream: result.toUIMessageStream() })) yield message;
    },
    toModelOutput: ({ output }) => {
      if (config.variant === 'deltas') return { type: 'text', value: output.text };
      const last = output?.parts.findLast((/** @type {{ type: string }} */ p) => p.type === 'text');
      return { type: 'text', value: last?.text ?? 'Task completed.' };
    },
  });
}
const main = new ToolLoopAgent({
  model,
  instructions: `${shape.mainMarker} You are the main agent. Delegate, then sum up.`,
  tools,
  maxRetries: 0,
});

await measureRuns(config.runs, async () => {
  let events = 0;
  const result = await main.stream({ prompt: shape.mainPrompt });
  for await (const part of result.fullStream) {
    events++;
    if (part.type === 'error') throw new Error(`AI SDK run failed: ${String(part.error)}`);
  }
  if (!(await result.text)) throw new Error('AI SDK run ended without a final text');
  return events;
});
