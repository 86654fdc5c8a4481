import { asyncScheduler, from, isObservable, Observable, Subscription } from 'rxjs';
import type { Tool, ToolContext, ToolResult } from '../tools/tool.js';
import { toolError } from '../tools/tool-error.js';
import { type RunScope, toolContextOf } from './run-scope.js';
import { checkArguments, type ParsedCall } from './tool-arguments.js';
import { DOOM_LOOP_REPEATS, gate, type Verdict } from './tool-gate.js';
import { orderedOutput } from './ordered-output.js';
import type { RunOutput } from './run-output.js';
import { errorMessage } from '../errors/error-message.js';
import { MAX_TIMER_MS } from '../validation/max-timer.js';
import { endSpan, toolSpan } from '../telemetry/spans.js';

/**
 * Runs one tool call: delivers `ToolCallStart`, any approval events, whatever the tool emits
 * (a `task`'s wrapped child events), then `ToolCallEnd` to the run's `output`, in order, and
 * emits the text the model reads as its one value. Every failure — invalid JSON, a schema
 * mismatch, an unknown or refused tool, a throw, a timeout — becomes such a text; the stream
 * itself never errors. Unsubscribing aborts the tool through its context's signal. `parsed`:
 * the call's arguments as its step parsed them for `ReasonEnd` (not parsed again here).
 */
export function toolCall$(scope: RunScope, step: number, { call, parsed }: ParsedCall, runOutput: RunOutput): Observable<string> {
  return new Observable<string>((done) => {
    const { run } = scope;
    const started = performance.now();
    let ranToEnd = false;
    const base = { runId: run.runId, agentName: run.agentName, step, callId: call.id, toolName: call.name };
    const output = orderedOutput<string>(scope, call.name, done, runOutput);
    output.next({ type: 'ToolCallStart', ...base, args: parsed.value });
    // The consumer cancelled on the ToolCallStart itself: nothing may run, not even a tool that
    // answers at once (its result would be dropped, but its side effect, a write, would stay).
    // The run's subscriber says so: this call's own is not reachable from it until it is
    // subscribed. No span either: the stopped run has ended its own (`RunState.abandon`).
    if (done.closed || runOutput.closed) return;
    const traced = run.trace ? toolSpan(call.name, call.id, run.trace.context, scope.tools.has(call.name)) : undefined;
    let spanEnded = false;

    const finish = (answer: ToolResult): void => {
      const result = wellFormed(answer);
      spanEnded = true;
      if (traced) endSpan(traced.span, result.error);
      const durationMs = Math.round(performance.now() - started);
      const error = result.error === undefined ? {} : { error: result.error };
      output.next({ type: 'ToolCallEnd', ...base, text: result.text, ...error, durationMs });
      output.end(result.text);
    };

    const tool = scope.tools.get(call.name);
    if (!parsed.ok) {
      finish(failed(`The arguments of this ${call.name} call are not valid JSON (${parsed.error}). Nothing was run; call it again with a JSON object.`));
      return;
    }
    if (!tool) {
      const names = [...scope.tools.keys()].join(', ') || 'none';
      finish(failed(`Unknown tool "${call.name}". Nothing was run. Available tools: ${names}.`));
      return;
    }
    const { problems, value: args } = checkArguments(tool, parsed.value);
    if (problems !== undefined) {
      finish(failed(`The arguments of this ${call.name} call do not match its schema: ${problems}. Nothing was run.`));
      return;
    }
    const abort = new AbortController();
    const repeats = run.noteCall(`${call.name}\u0000${JSON.stringify(parsed.value)}`);
    const repeated = repeats >= DOOM_LOOP_REPEATS ? { repeated: repeats } : {};
    // By hand rather than `defer(gate$).pipe(switchMap(execute$))`: a call the rules allow at
    // once subscribes nothing but the tool's own stream (issue 28: a `multitask` call lives as
    // long as its children).
    const work = new Subscription();
    const fail = (e: unknown): void => finish(failed(`The ${call.name} tool failed: ${errorMessage(e)}`));
    const judged = (verdict: Verdict): void => {
      if (!verdict.allowed) return finish(verdict);
      // Made once the gate has judged: a tool with paths learns where they led then.
      const context = toolContextOf(scope, step, call.id, abort.signal, output, traced?.context, verdict.paths);
      const executed = (result: ToolResult): void => {
        ranToEnd = true;
        finish(result);
      };
      const own = tool.timeoutMs;
      // A hand-built Tool's own timeout, unchecked until now (defineTool and the options check theirs): 0, -1 or NaN would fail every call or bound none.
      if (own !== undefined && !(typeof own === 'number' && own >= 1)) {
        return finish(failed(`The ${call.name} tool cannot run: its timeoutMs is ${String(own)}; it must be a number of milliseconds of at least 1, or Infinity. Fix the tool's definition.`));
      }
      work.add(execute$(tool, args, context, own ?? scope.agent.toolTimeoutMs).subscribe({ next: executed, error: fail }));
    };
    try {
      const verdict = gate(scope, { tool, args, sent: parsed.value, callId: call.id, signal: abort.signal, emit: output.next, ...repeated });
      if (isObservable(verdict)) work.add(verdict.subscribe({ next: judged, error: fail }));
      else judged(verdict);
    } catch (e) {
      fail(e); // a custom tool's `subject` threw: this call fails, nothing else
    }
    return () => {
      work.unsubscribe();
      if (traced && !spanEnded) endSpan(traced.span, undefined, { 'rxharness.call.stopped': true });
      // The signal's scope is the call: aborted when it is over, so nothing a tool tied to it
      // outlives the call. A call that ran to its end gets a shared reason: the default one
      // is a new DOMException, which costs more than a quick tool itself.
      abort.abort(ranToEnd ? CALL_ENDED : undefined);
    };
  });
}

/** The abort reason of a call that ran to its end (the signal is released, nothing failed). */
const CALL_ENDED = Object.freeze(new Error('the tool call has ended'));

/**
 * Runs the tool: its text or result, the last value of its promise or stream (`''` when that
 * stream ends empty), a thrown or wrong-shaped answer as an error, and past `timeoutMs` an
 * error saying so (the tool's stream unsubscribed). By hand rather than `takeLast`,
 * `defaultIfEmpty`, `map` and `timeout`, which a call kept alive as long as its tool ran
 * (issue 28); a tool that answers at once takes no timer.
 */
function execute$(tool: Tool, args: Record<string, unknown>, context: ToolContext, timeoutMs: number): Observable<ToolResult> {
  return new Observable<ToolResult>((out) => {
    const end = (value: unknown): void => {
      if (typeof value === 'string') return void (out.next({ text: value }), out.complete());
      if (isResult(value) && (value.error === undefined || typeof value.error === 'string')) return void (out.next(value), out.complete());
      out.error(new Error(`it returned ${describeValue(value)} instead of text or { text, error? }`));
    };
    const value = tool.execute(args, context); // a throw errors this stream (rxjs catches it)
    // Text, a result, or what is no stream at all (`null`, `42`, `{ text: 5 }`) ends the call at
    // once, named as it is: `from` would only say it "expected a stream".
    if (typeof value === 'string' || isResult(value) || !isStreamInput(value)) return end(value);
    let last: unknown = '';
    const running = from(value).subscribe({ next: (v) => (last = v), error: (e: unknown) => out.error(e), complete: () => end(last) });
    // An unbounded tool (Infinity) gets no timer at all, nor does one whose own `timeoutMs` is
    // longer than a timer holds (a hand-built Tool; defineTool and the options refuse it): Node
    // would fire either after 1 ms, and a wait of over 24.8 days is no bound in practice.
    if (!(timeoutMs <= MAX_TIMER_MS) || running.closed) return running;
    // On rxjs's scheduler, as `timeout` was: virtual in a TestScheduler.
    running.add(asyncScheduler.schedule(() => out.error(new Error(`it did not finish within ${timeoutMs} ms and was stopped`)), timeoutMs));
    return running;
  });
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return Array.isArray(value) ? 'a list' : 'an object without a string `text`';
  return `a ${typeof value}`;
}

/** Whether `from` can read `value`: an observable (rxjs's or another), a promise, an iterable, an async iterable or a ReadableStream. */
function isStreamInput(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const input = value as Record<PropertyKey, unknown>;
  return (
    isObservable(value) ||
    typeof input['then'] === 'function' ||
    typeof input[Symbol.iterator] === 'function' ||
    typeof input[Symbol.asyncIterator] === 'function' ||
    typeof input['getReader'] === 'function' ||
    typeof input[(Symbol as { readonly observable?: symbol }).observable ?? '@@observable'] === 'function'
  );
}

function isResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && !isObservable(value) && typeof (value as ToolResult).text === 'string';
}

const failed = toolError;

// Half of a two-unit character: no text. An MCP server's `"\ud800"` or a tool's cut between
// the halves of an emoji would be sent back to the model in every later request of the
// conversation, and a strict server refuses each of those requests whole.
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

/** `result` with each lone surrogate of its text and error replaced by U+FFFD, as a decoder would; itself when it has none (no copy). */
function wellFormed(result: ToolResult): ToolResult {
  const { text, error } = result;
  if (!LONE_SURROGATE.test(text) && (error === undefined || !LONE_SURROGATE.test(error))) return result;
  const whole = (t: string): string => t.replace(LONE_SURROGATES, '\ufffd');
  return error === undefined ? { text: whole(text) } : { text: whole(text), error: whole(error) };
}
