import { trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProbeRunEndsNormally } from './probe-run.js';

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


describe('an exporter that misbehaves', () => {
  for (const how of ['throws', 'fails', 'hangs'] as const) {
    it(`${how}: the run ends normally, its tool ran, and every span was handed over`, async () => {
      mode = how;
      handed.length = 0;
      await expectProbeRunEndsNormally();
      // the run, two requests, one call: the exporter's trouble stopped none of them
      await expect.poll(() => handed.length, { timeout: 10_000 }).toBe(4);
    });
  }
});
