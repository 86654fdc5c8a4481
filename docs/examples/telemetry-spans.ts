import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { defineAgent, HarnessEngine, ScriptedModel } from 'rxharness';

// An SDK registered by the application: rxharness records once there is one (here, in memory).
const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

const model = new ScriptedModel((request) => {
  if (request.sender?.agentName === 'scout') return { text: 'Two TODOs in src/.', usage: { promptTokens: 120, completionTokens: 8, totalTokens: 128 } };
  if (request.messages.at(-1)!.role === 'tool') return { text: 'The scout found two TODOs.', usage: { promptTokens: 300, completionTokens: 9, totalTokens: 309 } };
  return { toolCalls: [{ name: 'task', args: { agent_name: 'scout', prompt: 'Find TODOs', description: 'find todos' } }], usage: { promptTokens: 200, completionTokens: 20, totalTokens: 220 } };
});
const engine = new HarnessEngine({ model });
engine.agents.add(defineAgent({ name: 'scout', description: 'Finds things.', systemPrompt: 'You find things.', tools: ['grep'] }));
await engine.call('Look for TODOs');

// The trace as a tree: each span under its parent, with a few of its GenAI attributes.
const spans = exporter.getFinishedSpans();
const childrenOf = (parent: ReadableSpan | undefined) =>
  spans.filter((s) => s.parentSpanContext?.spanId === parent?.spanContext().spanId).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
const print = (span: ReadableSpan, depth: number): void => {
  const a = span.attributes;
  const usage = a['gen_ai.usage.input_tokens'] === undefined ? '' : ` in=${a['gen_ai.usage.input_tokens']} out=${a['gen_ai.usage.output_tokens']}`;
  const finish = a['gen_ai.response.finish_reasons'] ? ` finish=${String(a['gen_ai.response.finish_reasons'])}` : '';
  console.log(`${'  '.repeat(depth)}${span.name}${usage}${finish}`);
  for (const child of childrenOf(span)) print(child, depth + 1);
};
for (const root of spans.filter((s) => !s.parentSpanContext)) print(root, 0);
