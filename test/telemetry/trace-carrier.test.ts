import { ROOT_CONTEXT, trace, TraceFlags, type SpanContext } from '@opentelemetry/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextOfCarrier, traceCarrierOf, type TraceCarrier } from '../../src/telemetry/trace-carrier.js';

const span: SpanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };

describe('trace carriers (a span identity through a queue)', () => {
  it('round-trips a span: the context it gives back has that span as a remote parent', () => {
    const carried = traceCarrierOf(trace.setSpanContext(ROOT_CONTEXT, span));
    expect(carried).toEqual({ traceId: span.traceId, spanId: span.spanId, traceFlags: 1 });
    const back = trace.getSpanContext(contextOfCarrier(JSON.parse(JSON.stringify(carried)) as TraceCarrier)!);
    expect(back).toEqual({ ...span, isRemote: true });
  });

  it('carries nothing without a span or for the no-op span of an app without an SDK', () => {
    expect(traceCarrierOf(undefined)).toBeUndefined();
    expect(traceCarrierOf(ROOT_CONTEXT)).toBeUndefined();
    const noop = trace.getTracer('t').startSpan('x'); // no provider registered: non-recording, invalid ids
    expect(traceCarrierOf(trace.setSpan(ROOT_CONTEXT, noop))).toBeUndefined();
  });

  it('turns any malformed carrier from storage into a new trace (undefined), never a throw', () => {
    const bad = [
      { ...span, traceId: '0'.repeat(32) },
      { ...span, spanId: '0'.repeat(16) },
      { ...span, traceId: 'ZZ'.repeat(16) },
      { ...span, spanId: 'short' },
      { traceId: 5, spanId: null, traceFlags: 'x' },
    ];
    for (const carrier of bad) expect(contextOfCarrier(carrier as unknown as TraceCarrier)).toBeUndefined();
    fc.assert(
      fc.property(fc.anything(), (junk) => {
        const made = contextOfCarrier(junk as TraceCarrier);
        if (made !== undefined) expect(trace.isSpanContextValid(trace.getSpanContext(made)!)).toBe(true);
      }),
    );
  });

  it('keeps only the sampled flag of a carried traceFlags', () => {
    const made = contextOfCarrier({ traceId: span.traceId, spanId: span.spanId, traceFlags: 0xff });
    expect(trace.getSpanContext(made!)?.traceFlags).toBe(TraceFlags.SAMPLED);
  });
});
