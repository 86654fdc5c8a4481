import { context, INVALID_SPAN_CONTEXT, isSpanContextValid, SpanKind, SpanStatusCode, trace, type AttributeValue, type Context, type Span } from '@opentelemetry/api';
import { guarded } from './guarded.js';
import { guardedSpan } from './guarded-span.js';
import { PACKAGE_VERSION } from './package-version.js';
import { boundedAttributes, cut, MAX_NAME_CHARS, MAX_TEXT_CHARS, recordedError } from './span-bounds.js';

/**
 * OpenTelemetry spans of runs, model requests and tool calls, named and attributed after the
 * GenAI semantic conventions (`invoke_agent <agent>`, `chat <model>`, `execute_tool <tool>`).
 * Through `@opentelemetry/api` only: without an SDK registered by the application every
 * call is a no-op on a non-recording span, and nothing is done per streamed delta. What a
 * span keeps of each text is bounded (see `span-bounds.ts`).
 *
 * @module
 */

// A ProxyTracer: it starts recording once the application registers an SDK, whenever that is.
// Its scope names the package and its version, so a trace says which release made a span.
const tracer = trace.getTracer('rxharness', PACKAGE_VERSION);

/** What stands for a span the SDK failed to start: the API's no-op span. */
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** A span and the context that makes it the parent of what starts inside it. */
export interface Traced {
  readonly span: Span;
  readonly context: Context;
}

function start(name: string, kind: SpanKind, attributes: Record<string, AttributeValue | undefined>, parent: Context | undefined): Traced {
  const within = parent ?? context.active();
  // A span the SDK failed to start is a no-op one: the step or call goes on untraced.
  const span = guarded('start a span', () => guardedSpan(tracer.startSpan(name, { kind, attributes: boundedAttributes(attributes) }, within)), NO_SPAN);
  return { span, context: trace.setSpan(within, span) };
}

/**
 * The span of one run of an agent: under `parent` (the delegating tool call's span for a
 * task), else under whatever context is active where the run is subscribed.
 *
 * `undefined` when there is nothing to trace: no SDK records the span and no trace to carry
 * (its span context is invalid: no SDK, no remote parent). The run then makes no spans of
 * its steps and tool calls, and no context: a live run without an SDK keeps none of it
 * (every agent of a run tree held a span, a context and its map before; issue 28).
 * Undefined too when the SDK throws as it starts the span (see `guarded`): the run goes on.
 *
 * @example
 * ```ts
 * const traced = agentSpan('main', runId, sessionId, undefined);
 * ```
 */
export function agentSpan(agentName: string, runId: string, sessionId: string, parent: Context | undefined): Traced | undefined {
  const within = parent ?? context.active();
  const started = guarded(`start a run's span`, () => tracer.startSpan(`invoke_agent ${cut(agentName, MAX_NAME_CHARS)}`, {
    kind: SpanKind.INTERNAL,
    attributes: boundedAttributes({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': agentName,
      'gen_ai.agent.id': runId,
      'gen_ai.conversation.id': sessionId,
    }),
  }, within), undefined);
  if (!started) return undefined; // the SDK failed: the run goes on untraced
  // A sampled-out span of a valid trace is kept: its context still carries the trace to children and workers.
  // Asked before the span is wrapped, so a run without an SDK wraps nothing.
  if (!guarded('ask whether a span records', () => started.isRecording() || isSpanContextValid(started.spanContext()), false)) return undefined;
  const span = guardedSpan(started);
  return { span, context: trace.setSpan(within, span) };
}

/**
 * The span of one model request, under its run's span.
 *
 * @example
 * ```ts
 * const chat = chatSpan('gpt-4o-mini', { temperature: 0.2 }, run.context).span;
 * ```
 */
export function chatSpan(model: string, settings: { temperature?: number; topP?: number; maxTokens?: number } | undefined, parent: Context): Traced {
  return start(`chat ${cut(model, MAX_NAME_CHARS)}`, SpanKind.CLIENT, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': model,
    'gen_ai.request.temperature': settings?.temperature,
    'gen_ai.request.top_p': settings?.topP,
    'gen_ai.request.max_tokens': settings?.maxTokens,
  }, parent);
}

/**
 * The span of one tool call, under its run's span; a task's child run goes under it. A call
 * of a tool the run does not have (`known` false) is named `execute_tool` alone.
 *
 * @example
 * ```ts
 * const tool = toolSpan('read', callId, run.context);
 * ```
 */
export function toolSpan(toolName: string, callId: string, parent: Context, known = true): Traced {
  // A name the model made up is no span name (any string, any length: a name per call), and
  // is kept short as an attribute, as is the call's id, which the model makes up too.
  return start(known ? `execute_tool ${cut(toolName, MAX_NAME_CHARS)}` : 'execute_tool', SpanKind.INTERNAL, {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': known ? toolName : cut(toolName, MAX_NAME_CHARS),
    'gen_ai.tool.call.id': cut(callId, MAX_NAME_CHARS),
    'gen_ai.tool.type': 'function',
  }, parent);
}

/**
 * Ends a span: with an error status (and the error recorded when there is one) when
 * `failure` is given, else OK. Its message is cut at {@link MAX_TEXT_CHARS}, as is every
 * attribute: an error can quote the model or a server at any length. Never throws: a throw
 * of the SDK's (a span processor's `onEnd`) goes to the API's `diag` logger.
 *
 * @example
 * ```ts
 * endSpan(span, result.error);
 * ```
 */
export function endSpan(span: Span, failure?: string | Error, attributes: Record<string, AttributeValue | undefined> = {}): void {
  // Guarded apart: a span whose attributes failed still ends, and it ends once (the SDK marks it ended before its processors run).
  if (guarded('attribute a span', () => span.isRecording(), false)) guarded('attribute a span', () => attribute(span, failure, attributes), undefined);
  guarded('end a span', () => span.end(), undefined);
}

function attribute(span: Span, failure: string | Error | undefined, attributes: Record<string, AttributeValue | undefined>): void {
  span.setAttributes(boundedAttributes(attributes));
  if (failure === undefined) span.setStatus({ code: SpanStatusCode.OK });
  else {
    if (failure instanceof Error) span.recordException(recordedError(failure));
    span.setStatus({ code: SpanStatusCode.ERROR, message: cut(failure instanceof Error ? failure.message : failure, MAX_TEXT_CHARS) });
  }
}
