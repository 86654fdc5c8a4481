import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { testAgent } from '../support/agent-turns.js';
import { useInMemoryTracing } from '../support/in-memory-tracing.js';
import { steps, taskReply } from '../support/delegation-script.js';
import { HAS_REDIS } from './redis-server.js';
import { useScaleKits } from './scale-kit.js';

// One SDK for the file. The worker runs in this process, but its run starts from a BullMQ
// job in a context of its own: only what the job carries can link it to the engine's trace.
const exporter = useInMemoryTracing();

const one = (spans: readonly ReadableSpan[], name: string): ReadableSpan => {
  const found = spans.filter((s) => s.name === name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};

describe.skipIf(!HAS_REDIS)('a trace across engine and worker', () => {
  const scale = useScaleKits();

  it('continues on the worker: the child run is in the engine trace, under the task call', async () => {
    const kit = await scale.kit();
    kit.fixture.route({
      main: steps(taskReply('explorer', 'find the docs', 'find docs')),
      explorer: (t) => (t.step === 1 ? { toolCalls: [{ name: 'todo', arguments: { todos: [] } }] } : { text: 'in docs/' }),
    });
    const engine = await kit.engine({ distributeTasks: true }, [testAgent('explorer')]);
    await kit.worker();
    expect(await engine.call('go')).toMatchObject({ abnormal: false });

    const spans = exporter.getFinishedSpans();
    const main = one(spans, 'invoke_agent main');
    const call = one(spans, 'execute_tool task');
    const child = one(spans, 'invoke_agent explorer');
    const todo = one(spans, 'execute_tool todo');
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([main.spanContext().traceId]));
    expect(call.parentSpanContext?.spanId).toBe(main.spanContext().spanId);
    expect(child.parentSpanContext).toMatchObject({ spanId: call.spanContext().spanId, isRemote: true });
    expect(todo.parentSpanContext?.spanId).toBe(child.spanContext().spanId);
  });
});
