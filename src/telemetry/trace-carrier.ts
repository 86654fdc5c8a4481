import { ROOT_CONTEXT, trace, TraceFlags, type Context } from '@opentelemetry/api';

/**
 * A span's identity as JSON, to continue its trace in another process: the W3C
 * `traceparent` fields, without depending on the propagator an application registered (an
 * SDK set up without one must still get one trace across engine and workers).
 */
export interface TraceCarrier {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly traceState?: string;
}

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

/**
 * The span of `context` as a carrier, or undefined when there is none worth carrying (no
 * span, or the no-op span of an application without an OpenTelemetry SDK).
 *
 * @example
 * ```ts
 * const carried = traceCarrierOf(toolContext.traceContext); // { traceId, spanId, traceFlags }
 * ```
 */
export function traceCarrierOf(context: Context | undefined): TraceCarrier | undefined {
  const span = context && trace.getSpanContext(context);
  if (!span || !trace.isSpanContextValid(span)) return undefined;
  const state = span.traceState?.serialize();
  return { traceId: span.traceId, spanId: span.spanId, traceFlags: span.traceFlags, ...(state ? { traceState: state } : {}) };
}

/**
 * A context whose (remote) parent span is the carried one, so a span started in it joins
 * that trace; undefined for a carrier that is not a valid span identity (stored data is not
 * trusted: a malformed one starts a new trace rather than failing the task).
 *
 * @example
 * ```ts
 * const parent = contextOfCarrier(job.spec.task?.trace); // the worker's run span goes under it
 * ```
 */
export function contextOfCarrier(carrier: TraceCarrier | undefined): Context | undefined {
  if (!carrier || !TRACE_ID.test(String(carrier.traceId)) || !SPAN_ID.test(String(carrier.spanId))) return undefined;
  const flags = Number.isInteger(carrier.traceFlags) ? carrier.traceFlags & TraceFlags.SAMPLED : TraceFlags.NONE;
  const spanContext = { traceId: carrier.traceId, spanId: carrier.spanId, traceFlags: flags, isRemote: true };
  if (!trace.isSpanContextValid(spanContext)) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, spanContext);
}
