import { trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReActAgent } from '../../src/agent/react-agent.js';
import { ScriptedModel } from '../../src/model/scripted-model.js';
import type { Tool } from '../../src/tools/tool.js';
import { record } from '../support/collect-events.js';

/**
 * An application's exporter that throws as it is called, fails, or never answers: the SDK's
 * processor hands it each span as it ends. A run must end normally whatever the exporter does.
 * (One provider for the file: the library's tracer keeps the first provider it finds.)
 */

let mode: 'throws' | 'fails' | 'hangs' = 'throws';
const handed: ReadableSpan[] = [];
const exporter: SpanExporter = {
  export: (spans, done) => {
    handed.push(...spans);
    if (mode === 'throws') throw new Error('exporter broke');
    if (mode === 'fails') done({ code: ExportResultCode.FAILED, error: new Error('collector is down') });
    // 'hangs': never calls back
  },
  shutdown: async () => {},
};
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => void trace.setGlobalTracerProvider(provider));
afterAll(() => trace.disable()); // not shut down: a hanging export would hold its flush

const probe: Tool = { name: 'probe', description: 'Looks.', parameters: { type: 'object' }, execute: () => 'seen' };

describe('an exporter that misbehaves', () => {
  for (const how of ['throws', 'fails', 'hangs'] as const) {
    it(`${how}: the run ends normally, its tool ran, and every span was handed over`, async () => {
      mode = how;
      handed.length = 0;
      const model = new ScriptedModel([{ toolCalls: [{ id: 'c1', name: 'probe', args: {} }] }, { text: 'done' }]);
      const run = record(new ReActAgent({ model, tools: [probe] }).stream('go'));
      await run.done;
      expect(run.error).toBeUndefined();
      expect(run.events.find((e) => e.type === 'ToolCallEnd')).toMatchObject({ text: 'seen' });
      expect(run.events.at(-1)).toMatchObject({ type: 'RunEnd', abnormal: false, text: 'done' });
      // the run, two requests, one call: the exporter's trouble stopped none of them
      await expect.poll(() => handed.length, { timeout: 10_000 }).toBe(4);
    });
  }
});
