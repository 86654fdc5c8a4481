import { INVALID_SPAN_CONTEXT, type Span } from '@opentelemetry/api';
import { guarded } from './guarded.js';

/**
 * `span` with every method guarded (see `guarded`): a throw becomes a `diag` warning and a
 * harmless result (the invalid span context, not recording). A tracer the application
 * registered need not be the official SDK, and the run calls its span's methods beyond
 * start and end: `isRecording` before attributing, `spanContext` when a child span starts or
 * a worker's job carries the trace. One that throws there failed the run; telemetry never
 * breaks a run. Made once per span, only when an SDK records (no-op spans are never wrapped).
 *
 * @example
 * ```ts
 * const span = guardedSpan(tracer.startSpan('chat gpt-4o-mini'));
 * span.isRecording(); // false, not a throw, when the application's span throws
 * ```
 */
export function guardedSpan(span: Span): Span {
  const wrapper: Span = {
    spanContext: () => guarded("read a span's context", () => span.spanContext(), INVALID_SPAN_CONTEXT),
    isRecording: () => guarded('ask whether a span records', () => span.isRecording(), false),
    setAttribute: (key, value) => (guarded('attribute a span', () => span.setAttribute(key, value), undefined), wrapper),
    setAttributes: (attributes) => (guarded('attribute a span', () => span.setAttributes(attributes), undefined), wrapper),
    addEvent: (name, attributesOrTime, time) => (guarded('add a span event', () => span.addEvent(name, attributesOrTime, time), undefined), wrapper),
    addLink: (link) => (guarded('link a span', () => span.addLink(link), undefined), wrapper),
    addLinks: (links) => (guarded('link a span', () => span.addLinks(links), undefined), wrapper),
    setStatus: (status) => (guarded("set a span's status", () => span.setStatus(status), undefined), wrapper),
    updateName: (name) => (guarded('rename a span', () => span.updateName(name), undefined), wrapper),
    end: (time) => guarded('end a span', () => span.end(time), undefined),
    recordException: (exception, time) => guarded('record an exception on a span', () => span.recordException(exception, time), undefined),
  };
  return wrapper;
}
