import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { collect } from '../support/collect-events.js';
import { useInMemoryTracing } from '../support/in-memory-tracing.js';

/**
 * A span keeps text of bounded size whatever the model or a server sends: an exporter sends
 * every attribute, status message and recorded error whole (the SDK's length limit is off by
 * default), so a model that names a tool or a call in a megabyte made every span of its run
 * carry that megabyte.
 */

const exporter = useInMemoryTracing();
afterEach(() => exporter.reset());

const MEGABYTE = 'm'.repeat(1_000_000);

/** Every string a span holds (attributes, status, events' attributes), with its size. */
function textSize(span: ReadableSpan): number {
  return JSON.stringify({ attributes: span.attributes, status: span.status, events: span.events.map((e) => e.attributes) }).length;
}

const byName = (name: string): ReadableSpan => exporter.getFinishedSpans().find((s) => s.name === name)!;

describe('span text made by the model or a server is cut', () => {
  it("a call's id and a tool name of a megabyte each: the call's span, and the run's, keep at most a few KB", async () => {
    // Step 1 calls a tool nobody has (its error quotes the name); step 2, the last, asks again (the run's error quotes it).
    const model = new ScriptedModel(() => ({ toolCalls: [{ id: `call_${MEGABYTE}`, name: `tool_${MEGABYTE}`, args: {} }] }));
    const events = await collect(new ReActAgent({ name: 'probe', model, maxSteps: 2 }).stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true, error: expect.stringMatching(/step limit/) });

    const call = byName('execute_tool');
    expect(call.attributes['gen_ai.tool.call.id']).toBe(`call_${'m'.repeat(123)}…`);
    expect(call.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringMatching(/…$/) });
    const run = byName('invoke_agent probe');
    expect(run.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringMatching(/^the agent reached its step limit .*…$/) });
    for (const span of exporter.getFinishedSpans()) expect(textSize(span), span.name).toBeLessThan(10_000);
  });

  it("a failed model request whose error is a megabyte long: the exception the chat span records, and its status, are cut", async () => {
    const model = new ScriptedModel(() => ({ error: `upstream said ${MEGABYTE} END` }));
    const events = await collect(new ReActAgent({ model }).stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: true });

    const chat = byName('chat scripted');
    const exception = chat.events.find((e) => e.name === 'exception')!;
    expect(exception.attributes?.['exception.message']).toMatch(/^.*upstream said m+…$/);
    expect(String(exception.attributes?.['exception.stacktrace'])).toMatch(/upstream said m+…\n\s+at /);
    expect(chat.status.message).toMatch(/upstream said m+…$/);
    for (const span of exporter.getFinishedSpans()) expect(textSize(span), span.name).toBeLessThan(20_000);
  });
});
