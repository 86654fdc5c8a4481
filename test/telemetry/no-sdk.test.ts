import { type Context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { agentSpan } from '../../src/telemetry/spans.js';
import type { Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect-events.js';

/**
 * Without an SDK a run makes no span and no context (issue 28: every agent of a live run tree
 * held a no-op span, a context and its map). Told by what a tool's context carries, and by
 * what an SDK registered afterwards records; a trace that came from elsewhere is still carried.
 */

/** A run with one tool call; returns the trace context the tool was given. */
async function traceContextOfAToolCall(): Promise<Context | undefined> {
  let seen: Context | undefined;
  let called = false;
  const probe: Tool = { name: 'probe', description: 'Looks.', parameters: { type: 'object' }, execute: (_args, context) => ((called = true), (seen = context.traceContext), 'seen') };
  const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'probe', args: {} }] }, { text: 'done' }]);
  const events = await collect(new ReActAgent({ model, tools: [probe] }).stream('go'));
  expect(called).toBe(true);
  expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false });
  return seen;
}

describe('telemetry without an SDK', () => {
  it('a run gives its tools no trace context, and agentSpan makes none', async () => {
    expect(await traceContextOfAToolCall()).toBeUndefined();
    expect(agentSpan('main', 'run_1', 'ses_1', undefined)).toBeUndefined();
  });

  it('a trace carried in from elsewhere (a valid parent, no SDK) is still carried on', () => {
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED, isRemote: true });
    const traced = agentSpan('child', 'run_2', 'ses_2', parent);
    expect(traced).toBeDefined();
    expect(trace.getSpanContext(traced!.context)?.traceId).toBe('a'.repeat(32));
  });

  it('with an SDK registered, the same run records its spans and its tools get their call span as context', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    try {
      const seen = await traceContextOfAToolCall();
      const names = exporter.getFinishedSpans().map((s) => s.name);
      expect(names.filter((n) => n.startsWith('invoke_agent '))).toHaveLength(1);
      expect(names).toContain('execute_tool probe');
      const call = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool probe')!;
      expect(trace.getSpanContext(seen!)?.spanId).toBe(call.spanContext().spanId);
    } finally {
      trace.disable(); // (before, the library's proxy tracer would never see a provider registered after it)
      await provider.shutdown();
    }
  });
});
