import { trace, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProbeRunEndsNormally } from './probe-run.js';

/**
 * An application's tracer (not the official SDK) whose spans throw from every method:
 * `isRecording`, `spanContext`, `end`... Telemetry never breaks a run, so the run goes on.
 */

const broken = new Proxy({}, { get: () => () => { throw new Error('span broke'); } }) as Span;
const tracer = { startSpan: () => broken, startActiveSpan: () => { throw new Error('tracer broke'); } } as unknown as Tracer;
const provider: TracerProvider = { getTracer: () => tracer };
beforeAll(() => void trace.setGlobalTracerProvider(provider));
afterAll(() => trace.disable());


describe('a tracer whose spans throw from every method', () => {
  it('the run ends normally and its tool ran', async () => {
    await expectProbeRunEndsNormally();
  });
});
