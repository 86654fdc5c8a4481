import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import { collect } from '../support/collect-events.js';
import { useInMemoryTracing } from '../support/in-memory-tracing.js';

/**
 * A list attribute's strings are cut as a string attribute is: the finish reason is the
 * server's (any string, any length), and `gen_ai.response.finish_reasons` kept it whole.
 */

const exporter = useInMemoryTracing();
afterEach(() => exporter.reset());

describe('a finish reason of a megabyte', () => {
  it("is cut in the chat span's finish_reasons, as any text a span keeps", async () => {
    const model = new ScriptedModel([{ text: 'done', finishReason: `odd_${'r'.repeat(1_000_000)}` }]);
    const events = await collect(new ReActAgent({ name: 'probe', model }).stream('go'));
    expect(events.at(-1)).toMatchObject({ type: 'RunEnd' });
    const chat: ReadableSpan = exporter.getFinishedSpans().find((s) => s.name.startsWith('chat '))!;
    const reasons = chat.attributes['gen_ai.response.finish_reasons'] as string[];
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^odd_r+…$/);
    expect(reasons[0]!.length).toBeLessThanOrEqual(2_001);
  });
});
