import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NEVER } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { record } from '../support/collect-events.js';
import { expectProbeRunEndsNormally } from './probe-run.js';

/**
 * An application's SDK whose span processor throws (a custom one, an exporter failing in
 * line): the SDK calls processors without a `try`, so each throw reached the run. A run must
 * still end normally, and a cancelled one unsubscribe without a throw, its spans ended once.
 */

let breaks: 'nothing' | 'onStart' | 'onEnd' = 'nothing';
const ends = new Map<string, number>();
const starts = new Set<string>();
const processor: SpanProcessor = {
  onStart: (span) => {
    starts.add(span.spanContext().spanId);
    if (breaks === 'onStart') throw new Error('processor broke at start');
  },
  onEnd: (span: ReadableSpan) => {
    const id = span.spanContext().spanId;
    ends.set(id, (ends.get(id) ?? 0) + 1);
    if (breaks === 'onEnd') throw new Error('processor broke at end');
  },
  forceFlush: async () => {},
  shutdown: async () => {},
};
const provider = new BasicTracerProvider({ spanProcessors: [processor] });
beforeAll(() => void trace.setGlobalTracerProvider(provider));
afterAll(async () => {
  trace.disable();
  await provider.shutdown();
});
beforeEach(() => {
  starts.clear();
  ends.clear();
});

const stuck: Tool = { name: 'stuck', description: 'Never answers.', parameters: { type: 'object' }, execute: () => NEVER };

describe('a span processor that throws', () => {
  for (const where of ['onStart', 'onEnd'] as const) {
    it(`in ${where}: the run ends normally and its tool ran`, async () => {
      breaks = where;
      await expectProbeRunEndsNormally();
    });
  }

  it('in onEnd, on a cancelled run: the unsubscribe does not throw, and each span ends once', async () => {
    breaks = 'onEnd';
    const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'stuck', args: {} }] }]);
    const run = record(new ReActAgent({ model, tools: [stuck] }).stream('go'));
    await expect.poll(() => run.events.some((e) => e.type === 'ToolCallStart'), { timeout: 10_000 }).toBe(true);
    expect(() => run.subscription.unsubscribe()).not.toThrow();
    expect(starts.size).toBe(3); // the run, its request, its call
    for (const id of starts) expect(ends.get(id), id).toBe(1);
  });
});
