import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { useInMemoryTracing } from '../support/in-memory-tracing.js';
import { collect } from '../support/collect-events.js';
import { startDelegationFixture, MAIN_MODEL, type DelegationFixture } from '../support/delegation-fixture.js';

const exporter = useInMemoryTracing();

let f: DelegationFixture | undefined;
afterEach(async () => {
  await f?.close();
  f = undefined;
  exporter.reset();
});

const usage = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });
const named = (spans: readonly ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const one = (spans: readonly ReadableSpan[], name: string): ReadableSpan => {
  const found = named(spans, name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('OpenTelemetry spans (GenAI conventions)', () => {
  it('nests a delegated run under the tool call that delegated it, with usage and finish reasons on the chat spans', async () => {
    f = await startDelegationFixture({
      main: (t) =>
        t.step === 1
          ? { toolCalls: [{ name: 'task', arguments: { agent_name: 'scout', prompt: 'look', description: 'scout it' } }], usage: usage(30, 5) }
          : { text: 'all done', usage: usage(40, 3) },
      scout: (t) => (t.step === 1 ? { toolCalls: [{ name: 'todo', arguments: { todos: [] } }], usage: usage(11, 2) } : { text: 'seen', usage: usage(12, 1) }),
    });
    const engine = f.engine({}, [testAgent('scout')]);
    const result = await engine.call('go');
    expect(result).toMatchObject({ abnormal: false, text: 'all done' });
    const spans = exporter.getFinishedSpans();

    const main = one(spans, 'invoke_agent main');
    const scout = one(spans, 'invoke_agent scout');
    const task = one(spans, 'execute_tool task');
    const todo = one(spans, 'execute_tool todo');
    // One trace: main at the root, task under main, the scout's run under the task call, its tool under it.
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(parentOf(main)).toBeUndefined();
    expect(parentOf(task)).toBe(main.spanContext().spanId);
    expect(parentOf(scout)).toBe(task.spanContext().spanId);
    expect(parentOf(todo)).toBe(scout.spanContext().spanId);

    const chats = named(spans, `chat ${MAIN_MODEL}`);
    expect(chats).toHaveLength(4);
    const under = (run: ReadableSpan) => chats.filter((c) => parentOf(c) === run.spanContext().spanId);
    expect(under(main).map((c) => [c.attributes['gen_ai.usage.input_tokens'], c.attributes['gen_ai.usage.output_tokens'], c.attributes['gen_ai.response.finish_reasons']])).toEqual([
      [30, 5, ['tool_calls']],
      [40, 3, ['stop']],
    ]);
    expect(under(scout)).toHaveLength(2);
    expect(under(main)[0]!.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': MAIN_MODEL });

    // A run's span carries its RunEnd's usage: its own requests and everything it delegated
    // (main 70 + scout 23 in), as the run's metrics count it; each chat span has its request's.
    expect(main.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'main',
      'gen_ai.usage.input_tokens': 93,
      'gen_ai.usage.output_tokens': 11,
    });
    expect(scout.attributes).toMatchObject({ 'gen_ai.agent.name': 'scout', 'gen_ai.usage.input_tokens': 23, 'gen_ai.usage.output_tokens': 3 });
    expect(task.attributes).toMatchObject({ 'gen_ai.tool.name': 'task', 'gen_ai.operation.name': 'execute_tool' });
    for (const span of spans) expect(span.status.code, span.name).toBe(SpanStatusCode.OK);
  });

  it('records a failed tool call and a failed model request as errors; the run span says why it ended', async () => {
    f = await startDelegationFixture({
      main: (t) => (t.step === 1 ? { toolCalls: [{ name: 'read', arguments: { path: 'missing.txt' } }] } : { status: 400, errorMessage: 'template says no' }),
    });
    const end = await f.engine().call('go');
    expect(end.abnormal).toBe(true);
    const spans = exporter.getFinishedSpans();
    const read = one(spans, 'execute_tool read');
    expect(read.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringMatching(/missing\.txt/) });
    const chats = named(spans, `chat ${MAIN_MODEL}`);
    expect(chats.map((c) => c.status.code)).toEqual([SpanStatusCode.OK, SpanStatusCode.ERROR]);
    expect(chats[1]!.events.some((e) => e.name === 'exception')).toBe(true);
    const main = one(spans, 'invoke_agent main');
    expect(main.status).toMatchObject({ code: SpanStatusCode.ERROR, message: expect.stringMatching(/template says no/) });
  });

  it('ends every span when the subscriber leaves mid-request: nothing is left open', async () => {
    f = await startDelegationFixture({ main: () => ({ hang: true }) });
    const engine = f.engine();
    const subscription = engine.stream('go').subscribe();
    await f.server.waitForRequests(1);
    subscription.unsubscribe();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual([`chat ${MAIN_MODEL}`, 'invoke_agent main']);
    expect(one(spans, 'invoke_agent main').attributes['rxharness.run.stopped']).toBe(true);
    // The request cut short says so as its run does: no usage, no finish reason, and not an answer.
    const chat = one(spans, `chat ${MAIN_MODEL}`);
    expect(chat.attributes['rxharness.chat.stopped']).toBe(true);
    expect(chat.attributes['gen_ai.response.finish_reasons']).toBeUndefined();
  });

  it('under stream() the spans are the same as under call()', async () => {
    const script = { main: (t: { step: number }) => (t.step === 1 ? { toolCalls: [{ name: 'todo', arguments: { todos: [] } }] } : { text: 'ok' }) };
    f = await startDelegationFixture(script);
    await collect(f.engine().stream('go'));
    const streamed = exporter.getFinishedSpans().map((s) => s.name);
    exporter.reset();
    await f.engine().call('go');
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(streamed);
    expect(streamed).toContain('execute_tool todo');
  });

  it('names the span of a call to a tool the run does not have execute_tool alone: a name the model made up is no span name', async () => {
    const madeUp = `x${'y'.repeat(5000)}`;
    f = await startDelegationFixture({ main: (t) => (t.step === 1 ? { toolCalls: [{ name: madeUp, arguments: {} }] } : { text: 'ok' }) });
    expect(await f.engine({}).call('go')).toMatchObject({ abnormal: false, text: 'ok' });
    const spans = exporter.getFinishedSpans();
    const call = one(spans, 'execute_tool');
    expect(call.attributes['gen_ai.tool.name']).toBe(`${madeUp.slice(0, 128)}…`);
    expect(spans.some((s) => s.name.includes('yyy'))).toBe(false);
  });
});
