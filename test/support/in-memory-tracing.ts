/**
 * One OpenTelemetry SDK for a test file, exporting to memory: registered before its first
 * test, shut down after its last (the library's tracer is a proxy that records once one is
 * registered).
 *
 * @module
 */
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll } from 'vitest';

/** Registers the SDK for the calling file; returns its exporter (its spans, `reset()`). */
export function useInMemoryTracing(): InMemorySpanExporter {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  beforeAll(() => void trace.setGlobalTracerProvider(provider));
  afterAll(async () => {
    trace.disable();
    await provider.shutdown();
  });
  return exporter;
}
